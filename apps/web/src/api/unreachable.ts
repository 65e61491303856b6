// A tiny store that says whether a call just failed because the server did not answer, so one
// app-wide dialog ('The server is unreachable') can offer Retry and Cancel.
type Listener = () => void;

let unreachable = false;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

export const serverUnreachable = {
  report(): void {
    if (unreachable) return;
    unreachable = true;
    emit();
  },
  clear(): void {
    if (!unreachable) return;
    unreachable = false;
    emit();
  },
  get(): boolean {
    return unreachable;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
