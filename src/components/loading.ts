/**
 * What a section shows while its data is on the way, and if it fails:
 * `Loading(promise, render, {what})` returns at once a block that says
 * "Loading <what>…" (class parley-loading), then holds `render(value)`, or,
 * if the promise rejects, one line saying what could not be loaded and why
 * (class parley-error). A value that is already there renders at once.
 */
type Content = Node | string | null | undefined | Array<Node | string | null | undefined>;

export function Loading<T>(work: T | Promise<T>, render: (value: T) => Content, {what = "data"}: {what?: string} = {}): HTMLElement {
  const block = document.createElement("div");
  block.className = "parley-section";
  const fill = (content: Content) => {
    block.replaceChildren(...[content].flat().filter((c): c is Node | string => c !== null && c !== undefined));
  };
  const fail = (error: unknown) => {
    const message = document.createElement("p");
    message.className = "parley-error";
    message.textContent = `Could not load ${what}: ${error instanceof Error ? error.message : String(error)}`;
    block.replaceChildren(message);
  };
  if (!(work instanceof Promise)) {
    try {
      fill(render(work));
    } catch (error) {
      fail(error);
    }
    return block;
  }
  const waiting = document.createElement("p");
  waiting.className = "parley-loading";
  waiting.textContent = `Loading ${what}…`;
  block.append(waiting);
  work.then((value) => fill(render(value))).catch(fail);
  return block;
}
