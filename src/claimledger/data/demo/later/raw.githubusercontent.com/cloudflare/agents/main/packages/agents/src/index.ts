/**
 * Illustrative agent base class, written for the claimledger demo.
 *
 * It stands in for the SDK source file named in the example ledger, so that the
 * ledger's source entry has a file of the right kind to read. It is not the SDK's code.
 */

export type Connection = { send(message: string): void };

export class Agent<State> {
  #state: State | undefined;
  readonly #connections = new Set<Connection>();

  constructor(private readonly initialState: State) {}

  /** The current state: the copy held in memory, else the initial value. */
  get state(): State {
    return this.#state ?? this.initialState;
  }

  /**
   * Replace the state with `next` and send it to every connection.
   * The value is replaced as a whole; fields are not merged.
   */
  setState(next: State): void {
    this.#state = next;
    const message = JSON.stringify({ type: "state", state: next });
    for (const connection of this.#connections) {
      connection.send(message);
    }
  }

  /** Start sending state changes to `connection`. */
  connect(connection: Connection): void {
    this.#connections.add(connection);
    connection.send(JSON.stringify({ type: "state", state: this.state }));
  }
}
