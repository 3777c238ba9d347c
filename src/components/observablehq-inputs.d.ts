// @observablehq/inputs ships no types; components use only Inputs.table and Inputs.radio, whose results are DOM elements (a radio's with its value).
declare module "@observablehq/inputs" {
  export function table(data: Record<string, any>[], options?: Record<string, unknown>): HTMLElement;
  export function radio<T>(data: readonly T[], options?: Record<string, unknown>): HTMLElement & {value: T};
}
