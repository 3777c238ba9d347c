/**
 * The play page's setup: which game (GLEE's three families first, then the
 * other two-seat games, then the N-player games), its parameters (declared
 * by the game, defaults filled in), how many players where the game allows
 * several, the person's seat, and the agent in every other seat (only
 * agents that can take that seat). `onStart` receives the spec; a spec the
 * engine refuses is shown as one line by the caller.
 */
import type {GameDef, ParamSpec} from "../../loaders/contract/game.js";
import type {AgentDef} from "../../loaders/contract/agent.js";
import type {PlaySpec} from "./playDriver.js";
import {readNumber} from "../lib/playForm.js";
import {el} from "./playView.js";

const field = (label: string, input: HTMLElement, doc?: string) => el("label", {className: "play-field", title: doc ?? ""}, el("span", {textContent: label}), input);

/** An input for one parameter; `read` gives its value, or a string saying what is wrong. */
function paramInput(spec: ParamSpec): {node: HTMLElement; read: () => {value: unknown} | {error: string}} {
  const name = `param-${spec.name}`;
  if (spec.type === "boolean") {
    const box = el("input", {type: "checkbox", name, checked: spec.default === true});
    return {node: field(spec.label, box, spec.doc), read: () => ({value: box.checked})};
  }
  if (spec.type === "choice") {
    const select = el("select", {name});
    spec.values!.forEach((v, i) => select.append(el("option", {value: String(i), textContent: String(v), selected: v === spec.default})));
    return {node: field(spec.label, select, spec.doc), read: () => ({value: spec.values![Number(select.value)]})};
  }
  const input = el("input", {type: "text", name, value: String(spec.default), size: 10, autocomplete: "off"});
  return {
    node: field(spec.label, input, spec.doc),
    read: () => {
      const text = input.value.trim();
      if (spec.type === "horizon" && text === "inf") return {value: "inf"};
      const x = readNumber(text);
      return x === null ? {error: `${spec.label}: "${text}" is not a number`} : {value: x};
    },
  };
}

const seatLabel = (def: GameDef, seat: number) => def.seats.names?.[seat] ?? `seat ${seat}`;

export interface SetupOptions {
  games: readonly GameDef[];
  agents: readonly AgentDef[];
  playsGame: (agent: Pick<AgentDef, "games">, game: string) => boolean;
  onStart: (spec: PlaySpec) => void;
}

export function PlaySetup({games, agents, playsGame, onStart}: SetupOptions): HTMLElement {
  const root = el("form", {className: "play-setup"});
  const gameSelect = el("select", {name: "game"});
  for (const g of games) gameSelect.append(el("option", {value: g.id, textContent: `${g.title} (${g.id})`}));
  const about = el("p", {className: "play-about"});
  const body = el("div", {className: "play-setup-body"});
  const problem = el("p", {className: "play-error", role: "alert"});
  let read: () => PlaySpec | string = () => "no game";

  const showGame = () => {
    const def = games.find((g) => g.id === gameSelect.value)!;
    about.textContent = `${def.description} ${def.citation.short}, ${def.citation.section}.`;
    const params = def.params.map((p) => ({spec: p, ...paramInput(p)}));
    const players = el("select", {name: "players"});
    for (let n = def.seats.min; n <= def.seats.max; n++) players.append(el("option", {value: String(n), textContent: String(n), selected: n === Math.min(def.seats.default, 5)}));
    const seats = el("div", {className: "play-seats"});
    const seatSelects: HTMLSelectElement[] = [];
    const yourSeat = el("select", {name: "seat"});
    const showSeats = () => {
      const n = Number(players.value);
      const mine = Math.min(Number(yourSeat.value || 0), n - 1);
      yourSeat.replaceChildren(...Array.from({length: n}, (_, s) => el("option", {value: String(s), textContent: seatLabel(def, s), selected: s === mine})));
      seats.replaceChildren();
      seatSelects.length = 0;
      for (let s = 0; s < n; s++) {
        const select = el("select", {name: `agent-${s}`});
        if (s === mine) {
          seats.append(field(seatLabel(def, s), el("span", {className: "play-you", textContent: "you"})));
        } else {
          const able = agents.filter((a) => playsGame(a, def.id) && (a.canSit?.(def.id, s, n) ?? true));
          for (const a of able) select.append(el("option", {value: a.id, textContent: a.id, title: a.description}));
          if (!able.length) select.append(el("option", {value: "", textContent: "(no agent can take this seat)"}));
          seats.append(field(seatLabel(def, s), select));
        }
        seatSelects[s] = select;
      }
    };
    players.addEventListener("change", showSeats);
    yourSeat.addEventListener("change", showSeats);
    showSeats();
    const seed = el("input", {type: "text", name: "seed", value: String(Math.floor(Math.random() * 1e9)), size: 12});
    body.replaceChildren(
      el("fieldset", {}, el("legend", {textContent: "Parameters"}), ...params.map((p) => p.node)),
      el("fieldset", {}, el("legend", {textContent: "Players"}), ...(def.seats.min < def.seats.max ? [field("Number of players", players)] : []), field("Your seat", yourSeat), seats, field("Seed", seed)),
    );
    read = () => {
      const values: Record<string, unknown> = {};
      for (const p of params) {
        const r = p.read();
        if ("error" in r) return r.error;
        values[p.spec.name] = r.value;
      }
      const n = Number(players.value);
      const mine = Number(yourSeat.value);
      const seatIds = Array.from({length: n}, (_, s) => (s === mine ? "human" : seatSelects[s].value));
      const s = readNumber(seed.value);
      if (s === null) return `Seed: "${seed.value}" is not a number`;
      return {game: def.id, params: values, seats: seatIds, seed: s};
    };
  };
  gameSelect.addEventListener("change", showGame);
  showGame();
  root.append(field("Game", gameSelect), about, body, el("button", {type: "submit", className: "play-start", textContent: "Start the game"}), problem);
  root.addEventListener("submit", (event) => {
    event.preventDefault();
    const spec = read();
    if (typeof spec === "string") problem.textContent = spec;
    else {
      problem.textContent = "";
      onStart(spec);
    }
  });
  return Object.assign(root, {problem});
}
