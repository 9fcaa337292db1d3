import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SECRET_KINDS, findSecrets, redactSecrets } from '../../src/index.js';
import { shannonEntropy } from '../../src/redaction/entropy.js';
import { createSecretLedger, secretDigest } from '../../src/redaction/secret-ledger.js';
import { fakeRun, plantedSecrets } from '../fixtures/secrets.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function kindsIn(text: string): string[] {
  return findSecrets(text).map((finding) => finding.kind);
}

function secretsIn(text: string): string[] {
  return findSecrets(text).map((finding) => text.slice(finding.start, finding.end));
}

describe('findSecrets()', () => {
  describe('finds each kind the issue names', () => {
    for (const planted of plantedSecrets(3)) {
      it(`finds ${planted.kind} in "${planted.line.slice(0, 30)}…"`, () => {
        const findings = findSecrets(planted.line);
        expect(findings.map((finding) => finding.kind)).toEqual([planted.kind]);
        const [finding] = findings;
        expect(planted.line.slice(finding?.start, finding?.end)).toContain(planted.value.trim());
        const redacted = redactSecrets(planted.line).text;
        for (const needle of planted.needles) expect(redacted).not.toContain(needle);
      });
    }
  });

  describe('finds the other built-in kinds', () => {
    const gitlab = `glp${'at-'}${fakeRun(ALNUM, 20, 41)}`;
    const webhookPath = `T${fakeRun('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 8, 42)}/B${fakeRun('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 10, 43)}/${fakeRun(ALNUM, 24, 44)}`;
    const anthropic = `sk-${'ant-'}api03-${fakeRun(`${ALNUM}-_`, 80, 45)}`;
    const stripe = `sk_${'live_'}${fakeRun(ALNUM, 24, 46)}`;
    const google = `AI${'za'}${fakeRun(`${ALNUM}-_`, 35, 47)}`;
    const npm = `np${'m_'}${fakeRun(ALNUM, 36, 48)}`;
    const bearer = fakeRun(ALNUM, 30, 49);
    const cases: [kind: string, text: string, secret: string][] = [
      ['gitlab-token', `GITLAB=${gitlab} glab auth`, gitlab],
      ['slack-webhook', `POST https://hooks.slack.com/services/${webhookPath}`, webhookPath],
      ['anthropic-key', `key: ${anthropic}`, anthropic],
      ['stripe-key', `Stripe.api_key = '${stripe}'`, stripe],
      ['google-api-key', `maps?key=${google}&q=paris`, google],
      ['npm-token', `//npm.invalid/:_authToken=${npm}`, npm],
      ['auth-header', `curl -H "Authorization: Bearer ${bearer}" https://api.invalid`, bearer],
      ['auth-header', `x-api-key: ${bearer}`, bearer],
    ];
    for (const [kind, text, secret] of cases) {
      it(`finds ${kind} in "${text.slice(0, 32)}…"`, () => {
        expect(findSecrets(text).map((finding) => [finding.kind, text.slice(finding.start, finding.end)])).toEqual([[kind, secret]]);
      });
    }

    it('finds an AWS secret key whose 40 characters are a run of their own, quoted or next to other run characters', () => {
      const secret = fakeRun(`${ALNUM}/+`, 40, 50);
      for (const text of [`AWS_SECRET_ACCESS_KEY="${secret}"`, `secret_key: ${secret}-rotated`, `aws_secret_key=>${secret}`]) {
        expect(findSecrets(text).map((finding) => [finding.kind, text.slice(finding.start, finding.end)])).toEqual([['aws-secret', secret]]);
      }
    });

    it('lists every kind it can report in SECRET_KINDS', () => {
      const reported = new Set([...cases.map(([kind]) => kind), ...plantedSecrets(3).map((planted) => planted.kind)]);
      expect([...reported].sort()).toEqual([...SECRET_KINDS].sort());
    });
  });

  describe('credentials in assignments', () => {
    const value = `Vq${fakeRun(ALNUM, 10, 51)}7`;
    const cases: [form: string, text: string][] = [
      ['.env line', `DB_PASSWORD=${value}`],
      ['export', `export API_TOKEN=${value}`],
      ['YAML', `database:\n  password: ${value}\n  user: app`],
      ['JSON', `{"clientSecret": "${value}", "clientId": "web"}`],
      ['code', `const apiKey = '${value}';`],
      ['Python keyword', `connect(host="db", password="${value}")`],
      ['command-line flag', `mysql -u root --password=${value} orders`],
      ['query string', `GET /v1/items?access_token=${value}&limit=10`],
      ['upper-case _KEY name', `SENDGRID_KEY=${value}`],
    ];
    for (const [form, text] of cases) {
      it(`redacts the value and keeps the name in a ${form}`, () => {
        const redacted = redactSecrets(text);
        expect(redacted.secrets.map((secret) => secret.kind)).toEqual(['credential']);
        expect(redacted.text).not.toContain(value);
        expect(redacted.text).toContain('[secret:credential#1]');
        expect(redacted.text.replace('[secret:credential#1]', value)).toBe(text);
      });
    }
  });

  it('finds hex and symbol-only values under a secret-looking name, which no other detector would', () => {
    const hex = fakeRun('0123456789abcdef', 32, 52);
    expect(secretsIn(`DATADOG_API_KEY=${hex}`)).toEqual([hex]);
    expect(secretsIn(`password = '!@#%^&*('`)).toEqual(['!@#%^&*(']);
    expect(findSecrets(hex)).toEqual([]);
  });

  describe('private keys', () => {
    const body = Array.from({ length: 4 }, (_, index) => fakeRun(`${ALNUM}+/`, 64, 60 + index));
    it('takes the whole block from BEGIN to END', () => {
      const text = `key:\n-----BEGIN RSA PRIVATE KEY-----\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----\ndone`;
      expect(redactSecrets(text).text).toBe('key:\n[secret:private-key#1]\ndone');
    });

    it('takes a block written with escaped line breaks inside JSON', () => {
      const text = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----\\n", "type": "service_account"}`;
      const redacted = redactSecrets(text).text;
      for (const line of body) expect(redacted).not.toContain(line);
      expect(redacted).toContain('"type": "service_account"');
    });

    it('takes the key material of a truncated paste that lost its END line', () => {
      const text = `-----BEGIN EC PRIVATE KEY-----\n${body.slice(0, 2).join('\n')}\n`;
      const redacted = redactSecrets(text).text;
      for (const line of body.slice(0, 2)) expect(redacted).not.toContain(line);
    });

    it('leaves code that only mentions the BEGIN marker alone', () => {
      const text = 'const HEADER = "-----BEGIN RSA PRIVATE KEY-----";\nif (pem.startsWith(HEADER)) parse(pem);';
      expect(findSecrets(text)).toEqual([]);
    });
  });

  describe('URLs with credentials', () => {
    it('redacts the password and keeps the user, host and path', () => {
      const password = `${fakeRun(ALNUM, 12, 70)}`;
      expect(redactSecrets(`mongodb+srv://reporting:${password}@cluster0.invalid/app?retryWrites=true`).text).toBe(
        'mongodb+srv://reporting:[secret:url-password#1]@cluster0.invalid/app?retryWrites=true',
      );
    });

    it('leaves placeholders and URLs without a password alone', () => {
      expect(findSecrets('postgres://app:${DB_PASSWORD}@db/app mysql://root:<password>@db/x ssh://git@host:22/repo.git')).toEqual([]);
    });
  });

  describe('leaves ordinary text alone', () => {
    const negatives: [what: string, text: string][] = [
      ['a commit hash in git log output', 'commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Dana <dana@example.invalid>\n\n    Fix the parser'],
      ['a commit hash in a command', 'git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8 && git log --oneline -3'],
      ['a UUID', 'request 123e4567-e89b-12d3-a456-426614174000 failed, retry 9b2c7f40-1d3e-4a5b-8c6d-7e8f9a0b1c2d'],
      ['a container digest', 'image@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['a lockfile integrity hash', `"integrity": "sha512-${fakeRun(`${ALNUM}+/`, 86, 80)}=="`],
      ['a go.sum line', `golang.org/x/text v0.3.7 h1:${fakeRun(`${ALNUM}+/`, 43, 81)}=`],
      ['an image data URI', `<img src="data:image/png;base64,${fakeRun(`${ALNUM}+/`, 120, 82)}==">`],
      ['an MD5 file hash', 'md5sum: d41d8cd98f00b204e9800998ecf8427e  dist/app.js'],
      ['an address in hex', 'deployed at 0x52908400098527886E0F7030069857D2E4169EE7 on chain 1'],
      ['long identifiers', 'const handleUserAuthenticationRequestWithRetry = createAbstractSingletonProxyFactoryBean2();'],
      ['test names', 'test_user_can_login_with_valid_credentials_and_is_redirected PASSED'],
      ['paths', 'src/components/UserProfileSettingsPanel/UserProfileSettingsPanel.test.tsx and node_modules/.pnpm/@babel+core@7.22.5/node_modules/@babel/core/lib/index.js'],
      ['a stack trace', 'at Object.<anonymous> (/home/runner/work/project/project/src/index.test.ts:42:17)'],
      ['hashed asset names', 'dist/main.a1b2c3d4e5f6a7b8.js dist/chunk-vendors.3f2a9c8b.js'],
      ['model file names', 'loading Qwen2.5-Coder-14B-Instruct-Q6_K_L.gguf and DeepSeek-Coder-V2-Lite-Instruct-Q5_K_M.gguf'],
      ['CSS module class names', 'Header_container__3xYz9 styles_wrapper__aB12c'],
      ['API message ids', `"id": "msg_01${fakeRun(ALNUM, 22, 83)}", "tool_use_id": "toolu_01${fakeRun(ALNUM, 22, 84)}"`],
      ['type annotations', 'interface Login { token: string; password: string; apiKey?: string }\nclass Settings(BaseModel):\n    password: str\n    token: SecretStr'],
      ['references and placeholders', 'DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=$API_KEY\nSECRET_KEY=<your-secret-key>\nTOKEN=changeme\nAWS_SECRET_ACCESS_KEY=...'],
      ['code that reads secrets', 'password = os.environ["DB_PASSWORD"]\ntoken = request.headers.get("Authorization")\nconst authorization = req.headers.authorization;'],
      ['UI labels', '{"password": "Password", "forgotPassword": "Forgot your password?", "token": "Token"}'],
      ['token counts', 'max_tokens=4096 --max-tokens 2000 "maxTokens": 1024 "nextPageToken": "CiAKGjBpNDd2"'],
      ['prose about flags', 'pass the --token flag and then the --password option to the CLI'],
      ['sort and cache keys', 'PRIMARY_KEY=id\nCACHE_KEY = "user:profile"'],
      ['a URL with a port and an at-sign in the path', 'https://example.invalid:8080/users/@dana/posts'],
      ['short base64', 'echo SGVsbG8gV29ybGQ= | base64 -d'],
      ['a kebab-case sk- name', 'pip install sk-some-long-kebab-case-package-name'],
    ];
    for (const [what, text] of negatives) {
      it(`leaves ${what} alone`, () => {
        expect(secretsIn(text)).toEqual([]);
      });
    }
  });

  describe('overlaps', () => {
    it('reports the most specific kind when generic detectors match the same text', () => {
      const token = `gh${'p_'}${fakeRun(ALNUM, 36, 90)}`;
      expect(kindsIn(`GITHUB_TOKEN=${token}`)).toEqual(['github-token']);
      expect(kindsIn(`Authorization: token ${token}`)).toEqual(['github-token']);
    });

    it('never finds anything inside a placeholder', () => {
      expect(findSecrets('DB_PASSWORD=[secret:credential#1] and [secret:aws-key#12]')).toEqual([]);
    });
  });

  describe('options', () => {
    const key = `AK${'IA'}${fakeRun('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16, 100)}`;

    it('skips values on the allowlist, given as strings or RegExps', () => {
      const random = fakeRun(ALNUM, 32, 101);
      const text = `${key} and ${random}`;
      expect(kindsIn(text)).toEqual(['aws-key', 'high-entropy']);
      expect(findSecrets(text, { allow: [key] }).map((finding) => finding.kind)).toEqual(['high-entropy']);
      expect(findSecrets(text, { allow: [/^AKIA/g] }).map((finding) => finding.kind)).toEqual(['high-entropy']);
      // A global RegExp in the allowlist keeps working on every test.
      const allow = [/^AKIA/g];
      expect(findSecrets(`${key} ${key}`, { allow })).toEqual([]);
    });

    it('adds extra patterns, redacting the named group `secret` when there is one', () => {
      const id = fakeRun('0123456789', 12, 102);
      const text = `acme_id=${id} and ACME-${id}`;
      const redacted = redactSecrets(text, { patterns: [{ name: 'acme-id', pattern: /acme_id=(?<secret>\d{12})/ }, { name: 'acme-ref', pattern: /ACME-\d{12}/ }] });
      expect(redacted.text).toBe('acme_id=[secret:acme-id#1] and [secret:acme-ref#1]');
    });

    it('turns the entropy detector off with `entropy: false` and tunes it with a threshold', () => {
      const random = fakeRun(ALNUM, 24, 103);
      expect(kindsIn(`salt ${random}`)).toEqual(['high-entropy']);
      expect(findSecrets(`salt ${random}`, { entropy: false })).toEqual([]);
      expect(findSecrets(`salt ${random}`, { entropy: 7.5 })).toEqual([]);
    });

    it('rejects an invalid pattern name with a hint, as an InvalidArgumentError', () => {
      let caught: unknown;
      try {
        findSecrets('x', { patterns: [{ name: 'Acme Token', pattern: /acme/ }] });
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect((caught as Error).message).toContain('lower-case letters');
      expect(() => findSecrets('x', { entropy: 0 })).toThrow(InvalidArgumentError);
      expect(() => findSecrets('x', { patterns: [{ name: 'acme', pattern: 'acme' as unknown as RegExp }] })).toThrow(/RegExp/);
    });
  });
});

describe('redactSecrets()', () => {
  const [awsKey, , github] = plantedSecrets(5);
  it('gives the same secret the same placeholder, and each new one the next number of its kind', () => {
    const other = `AK${'IA'}${fakeRun('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16, 110)}`;
    const text = `${awsKey?.value} ${github?.value} ${other} ${awsKey?.value}`;
    expect(redactSecrets(text).text).toBe('[secret:aws-key#1] [secret:github-token#1] [secret:aws-key#2] [secret:aws-key#1]');
  });

  it('returns where each secret was in the input', () => {
    const text = `id=${awsKey?.value};`;
    const [secret] = redactSecrets(text).secrets;
    expect(secret).toEqual({ kind: 'aws-key', placeholder: '[secret:aws-key#1]', start: 3, end: 3 + (awsKey?.value.length ?? 0) });
  });

  it('is idempotent: redacting redacted text changes nothing', () => {
    const text = plantedSecrets(6).map((planted) => planted.line).join('\n');
    const once = redactSecrets(text).text;
    expect(redactSecrets(once).text).toBe(once);
  });
});

describe('shannonEntropy()', () => {
  it('measures bits per character', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abab')).toBe(1);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('secret ledger', () => {
  it('digests a secret into 8 hex digits, the same every time and different for different secrets', () => {
    expect(secretDigest('hunter2hunter2')).toMatch(/^[0-9a-f]{8}$/);
    expect(secretDigest('hunter2hunter2')).toBe(secretDigest('hunter2hunter2'));
    expect(secretDigest('hunter2hunter2')).not.toBe(secretDigest('hunter2hunter3'));
  });

  it('keeps the first placeholder of a digest and numbers each kind from its highest', () => {
    const ledger = createSecretLedger([{ digest: '0000000a', kind: 'jwt', number: 3 }]);
    ledger.add([{ digest: '0000000a', kind: 'jwt', number: 9 }, { digest: '0000000b', kind: 'aws-key', number: 1 }]);
    expect(ledger.placeholderOf('0000000a')).toBe('[secret:jwt#3]');
    expect(ledger.nextNumber('jwt')).toBe(4);
    expect(ledger.nextNumber('aws-key')).toBe(2);
    expect(ledger.nextNumber('slack-token')).toBe(1);
    expect(JSON.stringify(ledger.toJSON())).not.toContain('hunter');
  });
});

describe('authorization headers next to other secrets', () => {
  it('does not read the marker line of a private key after an empty header as its credential', () => {
    const text = 'Authorization:\n-----END OPENSSH PRIVATE KEY-----\n';
    expect(findSecrets(text).filter((finding) => finding.kind === 'auth-header')).toEqual([]);
  });
});
