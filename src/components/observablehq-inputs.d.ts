// @observablehq/inputs ships no types; components use only Inputs.table, whose result is a DOM element.
declare module "@observablehq/inputs" {
  export function table(data: Record<string, any>[], options?: Record<string, unknown>): HTMLElement;
}
