import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor, splitSentences } from '../../src/graduation/retention.js';
import { isBehaviourStatement, isFollowingPractice, isObligationStatement, isProductDescription, isProductNarration, isSettingStatement, premiseOf, turnShapeOf, withoutAttribution } from '../../src/language/behaviour-statement.js';
import type { TurnShape } from '../../src/language/behaviour-statement.js';

// Sentences written fresh for this test, by both speakers: statements of how the software must
// behave or how it is configured, and plans, hopes, questions, narration and chatter that must
// not be taken for them.
type Role = 'user' | 'assistant';
const isKept = (text: string, role: Role, turn: TurnShape = 'statement'): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns: englishPatterns, turn }).retention) !== undefined;

describe('isBehaviourStatement', () => {
  it.each([
    'The billing page should show the VAT number under the company name.',
    'The scheduler needs to skip public holidays.',
    'Invoices are required to carry a sequential number per tenant.',
    'When a refund is issued, the ledger records a negative line item.',
    'If the cache is cold, the gateway falls back to the primary database.',
    'Whenever a webhook delivery fails, the dispatcher retries it up to 6 times.',
    'once a trial ends the account is switched to read-only',
    'Attachments larger than 15 MB get bounced with an error toast.',
    'Idle connections are closed after 60 seconds.',
    'Admins must be able to impersonate any tenant.',
    'It should be possible to pause a subscription for up to 3 months.',
    'Given an expired card, when the renewal runs, then the account is downgraded.',
    'Passwords are to be stored with argon2.',
    'Sessions that stay idle for an hour are signed out automatically.',
    'The payment form locks itself once a card is declined three times.',
    'Audit entries are kept for 400 days.',
    'Password reset links stop working 30 minutes after they are issued.',
    'The carousel advances every 8 seconds unless the pointer is over it.',
    'Mobile clients choose the locale through the `Accept-Language` header.',
    'Tenants select their region via the X-Region-Id header.',
    'Members may invite up to 25 guests per board.',
  ])('states behaviour: %s', (sentence) => {
    expect(isBehaviourStatement(sentence)).toBe(true);
  });

  it.each([
    'We should look at the logger next.',
    'I should probably check the migration first.',
    'This should pass now.',
    'The suite should be green again after this change.',
    'When I ran the tests, three of them failed.',
    'If that fails, I will roll back the migration.',
    'Should the export include archived rows?',
    'When you get a chance, can you look at the CI logs?',
    'If the basic test works, you can also try a second session.',
    'The first step is to set the Yarn version to Berry.',
    'You should see the new column after a refresh.',
    'It should only take a minute.',
    'Thanks, that looks good.',
    'The test fails when the env var is missing.',
    'The build runs faster when the cache is warm.',
    'The `total` value is parsed twice: once in the controller and again in the serializer.',
    'The dashboard numbers looked off by 5%.',
    'Total memory usage grew to 90 MB after the import.',
    'The suite runs in 40 seconds now.',
    'The file contains 300 lines.',
    'It sends the token through the Authorization header.',
    'It reads `PortConfig` which should come from the shared namespace.',
    'The right fix should be either: a retry or a lock.',
  ])('does not: %s', (sentence) => {
    expect(isBehaviourStatement(sentence)).toBe(false);
  });
});

describe('isSettingStatement', () => {
  it.each([
    'The retry interval is 250 ms.',
    'Set WORKER_CONCURRENCY to 8 on the staging box.',
    'The page size for search results is 40.',
    'Outbound timeouts are 45s everywhere.',
    '`MAX_BODY_BYTES` is 1048576 in production.',
    'change the batch size to 500',
    'CACHE_TTL_SECONDS = 600 for the catalogue service.',
    'The invoice language becomes German for Austrian customers.',
    'As agreed, shipping labels move to DHL Express.',
    'Done as asked: the default currency is now CHF.',
  ])('gives a setting a value: %s', (sentence) => {
    expect(isSettingStatement(sentence)).toBe(true);
  });

  it.each([
    'The file is 300 lines long.',
    'The timeout is probably the issue here.',
    'What is the page size right now?',
    'I set the timeout to 5s while debugging and then reverted it.',
    'The suite took 40 seconds.',
    'When `strictMode` is true, the parser rejects trailing commas.',
    'It becomes Friday before anyone reviews it.',
    'The run becomes slower when the cache is cold.',
  ])('does not: %s', (sentence) => {
    expect(isSettingStatement(sentence)).toBe(false);
  });
});

describe('isProductDescription', () => {
  it.each([
    'The order history page lists cancelled orders at the bottom, greyed out.',
    'Every invoice carries the customer reference in its footer.',
    'The weekly digest groups mentions by project.',
    'Printed labels carry the warehouse code in the top corner.',
    'Oh, and archived boards stay readable for the whole team.',
    'The copy customers read lives in content/strings.json so it can be reviewed by legal.',
  ])('describes the product: %s', (sentence) => {
    expect(isProductDescription(sentence)).toBe(true);
  });

  it.each([
    'The export shows the wrong totals since yesterday.',
    'The page still fails to load on Safari.',
    'The agent numbers in the weekly report depend on this.',
    'The suite passes locally.',
    'It shows the same output over and over.',
    'The dashboard showed two charts before the redesign.',
    'Builds take ages on the shared runner.',
    'Logs show a spike at midnight.',
    'Customers complain about the new checkout.',
    'Requests hang now and then on staging.',
    'Things look fine from here.',
    'Most mornings work better for me.',
    'Consulte os registros de auditoria para ver quem fez a solicitação.',
  ])('does not: %s', (sentence) => {
    expect(isProductDescription(sentence)).toBe(false);
  });
});

describe('withoutAttribution', () => {
  it.each([
    ['The spec says invoices are numbered per tenant.', 'invoices are numbered per tenant.'],
    ['From the contract, refunds go out within 5 days.', 'refunds go out within 5 days.'],
    ['I checked the requirements: exports are zipped.', 'exports are zipped.'],
    ['Exports are zipped.', 'Exports are zipped.'],
    ['Bear in mind that exports are zipped.', 'exports are zipped.'],
    ['Just to confirm the behaviour: exports are zipped.', 'exports are zipped.'],
    ['The rule from the design review is that exports are zipped.', 'exports are zipped.'],
    ['When a refund is issued, the ledger records it.', 'When a refund is issued, the ledger records it.'],
    ['The value is converted twice: once here.', 'The value is converted twice: once here.'],
  ])('%s', (sentence, statement) => {
    expect(withoutAttribution(sentence)).toBe(statement);
  });
});

describe('turnShapeOf', () => {
  it.each<[string, TurnShape]>([
    ['Can you make the importer skip blank rows? The sheet comes from finance.', 'instruction'],
    ['Please keep the old endpoint alive until March.', 'instruction'],
    ['Add a `--dry-run` flag to the sync command.', 'instruction'],
    ['I added the guard and reran the suite. Fixed the typo in the header too.', 'report'],
    ['Which branch should I base this on?', 'question'],
    ['haha nice one', 'chatter'],
    ['The worker pulls jobs from Redis and writes results to S3.', 'statement'],
    ['Done.\n\n```ts\nconst limit = 5;\n```', 'report'],
  ])('%s -> %s', (text, shape) => {
    expect(turnShapeOf(text)).toBe(shape);
  });
});

describe('behaviour and settings become facts, whoever states them', () => {
  it.each<[string, Role]>([
    ['The billing page should show the VAT number under the company name.', 'user'],
    ['When a refund is issued, the ledger records a negative line item.', 'user'],
    ['Idle connections are closed after 60 seconds.', 'user'],
    ['The page size for search results is 40.', 'user'],
    ['The retry interval is 250 ms.', 'user'],
    ['From the contract, if a payment bounces the order returns to the `pending` state.', 'assistant'],
    ['When the export finishes, the status bar shows a banner for 10 seconds.', 'assistant'],
    ['Per the ticket, when the quota runs out the API answers 429 with a `Retry-After` header.', 'assistant'],
    ['As agreed, exported filenames have to include the tenant slug and the date.', 'assistant'],
    ['`MAX_BODY_BYTES` is 1048576 in production.', 'assistant'],
    ['The design doc says orders that stay unpaid for 30 minutes are cancelled.', 'assistant'],
    ['I went through the brief: a shared link expires after 7 days.', 'assistant'],
    ['The issue states QUEUE_MAX_DEPTH is 2000.', 'assistant'],
  ])('%s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['This should pass now.', 'assistant'],
    ['The suite should be green again after this change.', 'assistant'],
    ['When I ran the tests, three of them failed.', 'assistant'],
    ['`parseDate` returns null when the string is empty.', 'assistant'],
    ['You should see the new column after a refresh.', 'assistant'],
    ['While I see you already have `SKIP_CHECKS=true` in your env file, the issue persists.', 'assistant'],
    ['Earlier the endpoint returned 500 when the body was empty.', 'assistant'],
    ['When `useCache` is true, the `loadItems` method reads from Redis first.', 'assistant'],
    ['If you have time, grab a coffee first.', 'user'],
    ['`saveDraft` never awaits the write, so the check runs before the row exists.', 'assistant'],
    ['The interesting part of `src/routes/cart.ts` is `cartRoutes`, which is where `subtotal` gets computed.', 'assistant'],
  ])('not %s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });

  it('keeps a statement set apart before an intention, not the intention', () => {
    expect(isKept("Guests can open a shared board for up to 14 days; I'll wire that into the token check.", 'assistant')).toBe(true);
    expect(isKept("I'll look at the parser next; then the docs.", 'assistant')).toBe(false);
  });

  it('finds a statement of behaviour inside a long sentence, not a consequence of narration', () => {
    const long =
      'Having read the ticket twice and the thread under it, the requirement is that coupons older than 90 days are refused at checkout, and the cart has to say why, which the current handler does not do yet.';
    expect(isKept(long, 'assistant')).toBe(true);
    expect(isKept("I kept the public signature as it was, so callers don't need to change anything.", 'assistant')).toBe(false);
  });

  it('keeps what the user says the product does, not a report of it failing', () => {
    expect(isKept('The weekly digest groups mentions by project.', 'user', 'instruction')).toBe(true);
    expect(isKept('The weekly digest groups mentions by project.', 'user', 'chatter')).toBe(false);
    expect(isKept('The weekly digest groups mentions by project.', 'assistant')).toBe(false);
    expect(isKept('The export shows the wrong totals since yesterday.', 'user')).toBe(false);
  });

  it('weighs the turn: small talk and questions carry no requirement, a report needs a value', () => {
    const sentence = 'When the export finishes, the dashboard shows a banner.';
    expect(isKept(sentence, 'user', 'statement')).toBe(true);
    // A short line stating behaviour outright is kept; a description that is no rule is not.
    expect(isKept(sentence, 'user', 'chatter')).toBe(true);
    expect(isKept('nice, the dashboard shows the banner now', 'user', 'chatter')).toBe(false);
    expect(isKept(sentence, 'user', 'question')).toBe(false);
    expect(isKept('When the export finishes, the `statusBar` shows a banner.', 'assistant', 'report')).toBe(false);
    expect(isKept('When the export finishes, the dashboard shows a banner for 10 seconds.', 'assistant', 'report')).toBe(true);
  });
});

describe('prose after a closing code fence', () => {
  it('keeps a sentence that opens with a contraction', () => {
    const text = 'Here it is:\n```ts\nconst cap = 40;\n``` That\'s the whole change, the cap stays at 40 MB.\nDone.';
    expect(splitSentences(text)).toContain("That's the whole change, the cap stays at 40 MB.");
    const other = "Patch:\n```\nx = 1\n``` Don't drop the 40 MB cap when you refactor.";
    expect(splitSentences(other)).toContain("Don't drop the 40 MB cap when you refactor.");
  });
});

describe('premiseOf', () => {
  it.each([
    ['Since the kiosk has to keep taking orders without a network, I buffer them in IndexedDB.', 'the kiosk has to keep taking orders without a network'],
    ['Because refunds are capped at the original charge, we clamp the amount before calling the processor.', 'refunds are capped at the original charge'],
    ['Given that receipts are printed in Czech and Danish, I moved every label into the translation table.', 'receipts are printed in Czech and Danish'],
    ['Partners receive a signed callback for every payout, which is why I added one signing helper for all of them.', 'Partners receive a signed callback for every payout'],
    ['Tenants never see each other\'s invoices, so I put the tenant filter into the base query.', 'Tenants never see each other\'s invoices'],
    ['To keep the checkout usable on a keyboard alone, I gave every control a focus outline and a tab stop.', 'the checkout usable on a keyboard alone'],
    ['For the record: since the archive stays readable for seven years, we write it as plain JSON lines.', 'the archive stays readable for seven years'],
    ['What holds the design together is that because the storefront follows the visitor\'s language, I load the copy per locale.', 'the storefront follows the visitor\'s language'],
    ['I am working on the assumption that the scanner app runs on shared tablets, which is why the login screen forgets the last user.', 'the scanner app runs on shared tablets'],
    ['Because the interface mirrors the operating system font size, we measure text at runtime.', 'the interface mirrors the operating system font size'],
    ['Since the kiosk flow runs on wall-mounted screens, the buttons grow to thumb size.', 'the kiosk flow runs on wall-mounted screens'],
    ['I have kept in mind that the invoice view hides the bank details from guests, and the print view does too.', 'the invoice view hides the bank details from guests'],
    ['For the record, the onboarding tour waits for a first click, because popups on load are ruled out for this product.', 'the onboarding tour waits for a first click'],
  ])('finds the standing fact behind the work: %s', (sentence, premise) => {
    expect(premiseOf(sentence)).toBe(premise);
  });

  it.each([
    'Since the helper is only called from one place, I inlined it.',
    'Since `parseRow` returns null on blank lines, I added a guard.',
    'Because the pool was closed too early, I moved the teardown into afterAll.',
    'Since the test suite is slow, I ran only the billing specs.',
    'Since the import already has the columns, I should mark the step as done.',
    'The report totals are wrong, so I traced them back to the rounding.',
    'Since you asked for a shorter version, I trimmed the summary.',
    'Since it works now, I will move on to the next item.',
    'Now that I have read the config, I understand the layout.',
    'Since the settings.py file defines the cache, I edited it there.',
    'Because of the merge conflict, I rebased the branch.',
    'The mapper builds its rows by hand, which is why `total` is handled apart from the other fields.',
    'Since the cache is cold, the first request is slow.',
    'The page renders slowly because the cache is cold.',
    'The parser returns early because the input is empty.',
    'Because the nightly sync never finishes, the dashboard is stuck on yesterday.',
    'I noticed that the poller sleeps between every shard.',
    'I need to make sure that all imports point at the shared package.',
    'The search could use: ranking that favours recent posts over old ones.',
  ])('leaves out work, code, failures and the agent\'s own state: %s', (sentence) => {
    expect(premiseOf(sentence)).toBeUndefined();
  });

  it('makes the restated requirement a fact, from either speaker', () => {
    const assistant = 'Since the kiosk has to keep taking orders without a network, I buffer them in IndexedDB and replay them later.';
    const user = 'Because every receipt goes out in Czech and Danish, we keep the wording in one catalogue.';
    expect(analyzeSentence(assistant, { role: 'assistant', patterns: englishPatterns }).retention).toBe('requirement');
    expect(isKept(user, 'user')).toBe(true);
    expect(isKept('Since the helper is only called from one place, I inlined it.', 'assistant')).toBe(false);
  });
});

describe('isObligationStatement', () => {
  it.each([
    'The booking widget is expected to keep working when the tab goes offline.',
    'Nightly exports have to carry the tenant name in every row.',
    'The partner feed must not expose internal ids.',
    'Archived projects can only be reopened by an owner.',
    'Also, the mobile client needs to keep its drafts across restarts.',
  ])('reads a firm obligation on the product: %s', (sentence) => {
    expect(isObligationStatement(sentence)).toBe(true);
  });

  it.each([
    'The dashboard should load faster now.',
    'This must be the stale cache again.',
    'The tests have to pass before we merge.',
    'I need to check the retry helper first.',
    'It has to be something in the serializer.',
    'The page must have been cached by the proxy.',
    'Do the exports have to include archived rows?',
  ])('leaves out hopes, plans, guesses and questions: %s', (sentence) => {
    expect(isObligationStatement(sentence)).toBe(false);
  });

  it('keeps an assistant\'s obligation on the product without a value, even with a completion word in it', () => {
    expect(isKept('The booking widget is expected to keep working when the tab goes offline.', 'assistant')).toBe(true);
    expect(isKept('The booking widget is expected to keep working when the tab goes offline.', 'assistant', 'report')).toBe(true);
    expect(isKept('The widget works again after the reload.', 'assistant')).toBe(false);
  });
});

describe('a labelled new value from the assistant', () => {
  it('is a decision, while a labelled observation is not', () => {
    expect(isKept('Switched as you asked: the invoice language becomes German.', 'assistant')).toBe(true);
    expect(isKept('Expected: May fail - the cache keys differ.', 'assistant')).toBe(false);
  });
});

describe('isProductNarration', () => {
  it.each([
    'Wholesale buyers are held to a minimum basket of forty units, so the cart refuses smaller orders for them.',
    'Partner payouts are batched on the first working day of the month.',
    'Something the next release relies on: gift cards are redeemable in every store of the chain, and the tests cover it.',
    'Guest reviewers see the documents in read-only mode for the whole review period.',
    'Archived workspaces are read-only for everyone except the owner.',
  ])('reads %j as a description of the product', (sentence) => {
    expect(isProductNarration(sentence)).toBe(true);
  });

  it.each([
    'The `mergeBaskets` helper walks both lists before it sorts them.',
    'The loop in src/cart/merge.ts is now simpler.',
    'I moved the rounding into the payout job.',
    'The tests are green again.',
    'It also makes the next change easier, since the data is already normalized.',
    'The totals look normal, so the rounding is not the problem.',
    'The export is broken for empty carts.',
    'Are payouts batched monthly?',
    'The retry count was set to five yesterday.',
    'The naming is inconsistent: some handlers return early and others throw.',
  ])('does not read %j as one', (sentence) => {
    expect(isProductNarration(sentence)).toBe(false);
  });
});

describe('a standing reason after the speaker\'s own work', () => {
  it.each([
    ['I kept the sidebar collapsible because the dashboard has to stay usable on a 13-inch laptop.', 'the dashboard has to stay usable on a 13-inch laptop'],
    ['We throttle the importer since the vendor feed must not be polled more than once an hour.', 'the vendor feed must not be polled more than once an hour'],
    ['I set the nightly window to 02:00 since no export may start during store hours.', 'no export may start during store hours'],
  ])('finds the premise in %j', (sentence, premise) => {
    expect(premiseOf(sentence)).toBe(premise);
  });

  it.each([
    'I added a guard because the input can be empty.',
    'I kept the old signature since the callers rely on it.',
    'We renamed it because the old name was confusing.',
    'I moved the check into the route because the service is shared.',
    'I wrapped the call in a retry since the partner endpoint may drop connections under load.',
  ])('leaves %j to the work', (sentence) => {
    expect(premiseOf(sentence)).toBeUndefined();
  });

  it('makes the premise a requirement from either speaker', () => {
    expect(isKept('I kept the sidebar collapsible because the dashboard has to stay usable on a 13-inch laptop.', 'assistant')).toBe(true);
    expect(isKept('We throttle the importer since the vendor feed must not be polled more than once an hour.', 'user')).toBe(true);
  });
});

describe('what nothing of a kind may do', () => {
  it('is a statement of behaviour, while "no one" and findings about the tests are not', () => {
    expect(isBehaviourStatement('No refund may exceed the amount originally charged.')).toBe(true);
    expect(isBehaviourStatement('no draft can be published without a second reviewer')).toBe(true);
    expect(isBehaviourStatement('No one can reproduce it on staging.')).toBe(false);
    expect(isBehaviourStatement('No test can cover the empty case yet.')).toBe(false);
  });
});

describe('isProductNarration: capabilities and finished work', () => {
  it.each([
    'A voucher can pay for the delivery fee but not for the items themselves.',
    'Each workspace may hold up to three active projects on the free plan.',
    'Returning customers complete the purchase with a saved card and one click.',
    'Weights on the packing slip print in kilograms with one decimal.',
    'The payout batch for each merchant settles on the last business day of the month.',
    'The demo tenant is wired to the sandbox mail relay, so nothing reaches a real inbox.',
    'Address changes are confirmed by a mail to the old address as well.',
    'Order lines are grouped by warehouse on the packing slip.',
    'Outbound webhooks go through the relay queue now, which replaced the direct calls.',
    'Everyone outside the finance group sees the invoices without the bank details.',
    'Every shipment label carries the return address of the regional depot.',
    'Each tenant gets its own invoice numbering sequence.',
    'Bear in mind that every refund request carries the original order number.',
  ])('reads %j as a description of the product', (sentence) => {
    expect(isProductNarration(sentence)).toBe(true);
  });

  it.each([
    'The refactor is complete.',
    'Everything is wired up.',
    'The invoice flow works end to end.',
    'The cache can return stale data here.',
    'The function can be simplified.',
    'The settings page is wired up.',
    'Implement reminders for overdue loans and renewals.',
    'Most of the slowness here comes from building the rows twice.',
    'The last change is small enough to review on its own.',
    'This edit keeps the old behaviour for empty carts.',
    'For now, the plain approach is taken.',
    'The list is now sorted by date.',
    'Anyone with access to the logs can see it.',
    'Every time the job runs it has to reload the whole file.',
    'Each of these tests has its own fixture.',
    'I noticed that every retry request carries the original order number.',
  ])('does not read %j as one', (sentence) => {
    expect(isProductNarration(sentence)).toBe(false);
  });
});

describe('quantities of money, shares and people', () => {
  it.each([
    'Free delivery starts at 30 dollars per basket.',
    'Referral bonuses pay out 4 percent of the first order.',
    'Starter plans allow 3 seats per workspace.',
  ])('make %j a statement of behaviour', (sentence) => {
    expect(isBehaviourStatement(sentence)).toBe(true);
  });

  it('leaves a past amount to the story', () => {
    expect(isBehaviourStatement('The invoice grew by 30 dollars last month.')).toBe(false);
  });
});

describe('isFollowingPractice', () => {
  it.each([
    'I wrote the audit events to Kafka, the same way the billing service publishes its events.',
    'The new report is a Parquet file like all the other exports.',
    'We version the webhook payloads in the URL, consistent with the existing public endpoints.',
  ])('reads %j as following the project\'s way', (sentence) => {
    expect(isFollowingPractice(sentence)).toBe(true);
  });

  it.each([
    'The naming now matches `src/orders/list.ts`, like the rest of the module.',
    'Is this done the same way as the other exports?',
    'The totals look different from the rest of the page.',
  ])('does not read %j as one', (sentence) => {
    expect(isFollowingPractice(sentence)).toBe(false);
  });

  it('makes a named practice a convention from either speaker', () => {
    const assistant = analyzeSentence('I wrote the audit events to Kafka, the same way the billing service publishes its events.', { role: 'assistant', patterns: englishPatterns });
    expect(assistant.retention).toBe('convention');
    expect(isKept('The new report is a Parquet file like all the other exports.', 'user')).toBe(true);
  });
});
