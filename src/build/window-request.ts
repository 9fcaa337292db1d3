import { validateBuildInput } from '../context-manager-inputs.js';
import type { EventRelay } from '../event-relay.js';
import type { ResolvedOptions } from '../options.js';
import { resolveBuildBudget } from '../options-schema.js';
import type { SessionComponents } from '../session-components.js';
import type { BuiltContext } from './window-builder.js';

/**
 * Serves one `build()` call: validates its options, resolves the budget (the configured one by
 * default), builds from the session's view with the items a recall asked to show, and emits
 * `window-trim` when something did not fit, rethrowing a listener's error after the build.
 * @internal
 */
export function buildWindow(options: { input: unknown; options: ResolvedOptions; session: SessionComponents; events: EventRelay }): BuiltContext {
  const { options: resolved, session, events } = options;
  const parsed = validateBuildInput(options.input);
  const budget = parsed.budget === undefined ? resolved.budget : resolveBuildBudget({ budget: parsed.budget, contextWindow: resolved.contextWindow });
  const view = session.recorder.view;
  const built = session.builder.build(budget, view.tiers, view.scratchpad, session.recall.takeRecalled());
  const { omitted } = built;
  if (omitted.entries + omitted.summaries + omitted.facts + omitted.files > 0 || omitted.isPinsOmitted) {
    events.emit('window-trim', { budget, omitted });
    events.rethrow();
  }
  return built;
}
