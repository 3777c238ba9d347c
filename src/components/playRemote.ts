/**
 * The game on a participant's page of `parley play`: a driver that plays
 * through the experiment server over HTTP (the server runs the game, holds
 * the keys and calls the LLM; the page only sends the person's entries), and
 * the game screen drawn from it: the conversation as an LLM in the seat
 * would read it, and the form of the legal actions (src/lib/playForm.ts).
 * Text is set with textContent only.
 */
import type {ActionSpec} from "../../loaders/games/contract.js";
import {actionForms, parseEntry, type FormValues} from "../lib/playForm.js";

/** The study's HTTP API for one participant (playStudy.ts). */
export interface StudyApi<S extends {step: string; game?: unknown} = {step: string; game?: unknown}> {
  state(): Promise<S>;
  post(path: string, body: unknown): Promise<{status: number; data: Record<string, unknown>}>;
}

/** What the server says about the participant's game (loaders/play/liveGames.ts GameView). */
export interface RemoteGame {
  seat: number;
  seat_name: string | null;
  pending: {round: number; messages: {role: string; content: string}[]; legal: ActionSpec[]} | null;
  failed: boolean;
  over: boolean;
}

export interface RemoteDriver {
  game: RemoteGame | null;
  /** Sends an entry: null when accepted (the study moves on), else the server's reason (nothing changed). */
  submit(action: Record<string, unknown>): Promise<string | null>;
  /** Asks the server to rebuild a game whose LLM endpoint failed. */
  retry(): Promise<void>;
}

export function remoteDriver(api: StudyApi, state: {game?: unknown}): RemoteDriver {
  return {
    game: (state.game as RemoteGame | undefined) ?? null,
    async submit(action) {
      const {status, data} = await api.post("/move", {action});
      if (status === 200) return null;
      return String(data.error ?? `HTTP ${status}`);
    },
    async retry() {
      await api.post("/retry", {});
    },
  };
}

function text<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, content: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = content;
  return node;
}

/** Draws the game screen into `screen`; `next()` reloads the study once the server has moved on. */
export function mountGame(screen: HTMLElement, driver: RemoteDriver, next: () => void): void {
  const game = driver.game;
  if (!game || game.failed) {
    screen.append(text("p", "parley-error", "The other player could not be reached. Please try again in a moment."));
    const again = text("button", "", "Try again");
    again.addEventListener("click", () => void driver.retry().then(next));
    screen.append(again);
    return;
  }
  const pending = game.pending;
  if (!pending) {
    screen.append(text("p", "parley-loading", "Waiting for the other player…"));
    setTimeout(next, 1500);
    return;
  }
  const log = document.createElement("div");
  log.className = "parley-conversation";
  for (const m of pending.messages) {
    const item = text("div", `parley-message parley-message-${m.role}`, m.content);
    log.append(item);
  }
  screen.append(log);
  const status = text("p", "parley-error parley-refusal", "");
  for (const form of actionForms(pending.legal)) {
    const node = document.createElement("form");
    node.className = "parley-action-form";
    node.dataset.type = form.type;
    node.append(text("h3", "", form.label));
    for (const f of form.fields) {
      const label = text("label", "", `${f.label} `);
      if (f.kind === "choice") {
        const select = document.createElement("select");
        select.name = f.name;
        for (const o of f.options) {
          const option = text("option", "", o.label);
          option.value = o.value;
          select.append(option);
        }
        label.append(select);
      } else {
        const input = f.kind === "text" ? document.createElement("textarea") : document.createElement("input");
        input.name = f.name;
        label.append(input);
      }
      node.append(label);
    }
    const button = text("button", "", form.label);
    button.type = "submit";
    node.append(button);
    node.addEventListener("submit", (event) => {
      event.preventDefault();
      const values: FormValues = {};
      for (const f of form.fields) values[f.name] = (node.elements.namedItem(f.name) as HTMLInputElement | null)?.value;
      const entry = parseEntry(form, values);
      if ("error" in entry) {
        status.textContent = entry.error;
        return;
      }
      button.disabled = true;
      status.textContent = "";
      driver.submit(entry.action).then((error) => {
        if (error) {
          status.textContent = error;
          button.disabled = false;
        } else next();
      }, (error: Error) => {
        status.textContent = `Could not reach the server: ${error.message}`;
        button.disabled = false;
      });
    });
    screen.append(node);
  }
  screen.append(status);
}
