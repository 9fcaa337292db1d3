/**
 * Lets parts of the library that keep their own picture of a manager's history (the adapters'
 * recorded history) hear when the manager's view is replaced by a saved version (`rollback()`),
 * without a public event.
 * @internal
 */

const listeners = new WeakMap<object, Array<() => void>>();

/** Calls `listener` each time the view of `manager` is replaced by a saved version. @internal */
export function onViewRestore(manager: object, listener: () => void): void {
  const list = listeners.get(manager);
  if (list === undefined) listeners.set(manager, [listener]);
  else list.push(listener);
}

/** Tells the listeners of `manager` that its view was replaced. @internal */
export function notifyViewRestore(manager: object): void {
  for (const listener of listeners.get(manager) ?? []) listener();
}
