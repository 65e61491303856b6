// A JSON body its caller has serialised already: uploads build request bodies from rows
// serialised once, to measure them (docs/sdk-protocol.md), and the client sends that text as it
// is instead of serialising the body again.

/** JSON text standing for a body of type T; the client sends it unchanged. */
export class JsonText<T = unknown> {
  /** The body's type, for the typed client only (never set). */
  declare readonly body?: T;

  constructor(readonly text: string) {}
}
