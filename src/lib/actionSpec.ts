/**
 * Legal actions as data (the game contract, loaders/contract/game.ts, hands
 * them to players with every observation). Declared here, in pure shared
 * code, because the browser's move form (playForm.ts) is built from them
 * too; the contract re-exports both types.
 */
/** A numeric field's closed range (bounds absent = unbounded); `integer` requires a whole number. */
export interface NumberSpec {
  min?: number;
  max?: number;
  integer?: boolean;
}

/**
 * One kind of legal action, as data. An action is legal when it has this
 * `type`, every `numbers` field is a finite number in range (and whole when
 * `integer`), every `choices` field is one of its values (fields in
 * `optional` may be absent), every `lists` field is a list of the given
 * length whose entries are legal numbers, `sum` holds (within 1e-6), and the
 * `text` field is present when required (absent when not allowed).
 * `format` is legacy prompt text kept by GLEE's actions; new games leave it
 * to their narrator.
 */
export interface ActionSpec {
  type: string;
  numbers?: Record<string, NumberSpec>;
  lists?: Record<string, {length: number; item: NumberSpec}>;
  sum?: {fields: string[]; equals: number};
  choices?: Record<string, readonly (string | null)[]>;
  optional?: readonly string[];
  text?: {field: string; required: boolean} | null;
  format?: string;
}
