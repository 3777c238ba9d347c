/**
 * A game in words for the person playing it (the participant's page of
 * `parley play`, src/components/playView.ts in its "person" mode), where a
 * language model reads a prompt: the fields of a move labelled from the
 * person's side ("You get", "Alice gets", their own field first, amounts in
 * the game's currency), choices as sentences ("Accept the offer"), moves as
 * words rather than JSON ("You offered: you get $600, Alice gets $400"),
 * what a standing offer is worth to the person now after discounting
 * (GLEE bargaining: the amount times their factor to the power of the
 * rounds gone by, GLEE (Shapira et al. 2024) §2.1), and the outcome at the
 * end. What the model would have read stays available beside it. Pure.
 */
import {fieldLabel, type ActionForm, type FieldModel} from "./playForm.js";

/** The unit amounts are in: GLEE's games are told in dollars (its prompts' "$"); other games' numbers are plain. */
export function gameUnit(game: string): string | null {
  return game.startsWith("glee/") ? "$" : null;
}

/** A number as people read it: thousands separated, at most two decimals ("10,000", "3,240.5"). */
export function plainNumber(x: number): string {
  return x.toLocaleString("en-US", {maximumFractionDigits: 2});
}

/** An amount in `unit` ("$1,000"; "-$50"), or the plain number. */
export function amount(x: number, unit: string | null): string {
  if (unit === null) return plainNumber(x);
  return x < 0 ? `-${unit}${plainNumber(-x)}` : `${unit}${plainNumber(x)}`;
}

/** "alice" → "Alice"; a seat without a name → "Player 3" (1-based). */
export function seatLabel(name: string | null, seat: number): string {
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : `Player ${seat + 1}`;
}

/** Who the person is and who the others are, for labels. */
export interface Side {
  /** The person's seat name (lower case, as the game names it), or null. */
  me: string | null;
  /** The game's seat names, in seat order (empty when the game names none). */
  names: readonly string[];
  unit: string | null;
}

/** The seat whose share a field holds ("alice_gain" → "alice"), or null. */
function fieldSeat(name: string, side: Side): string | null {
  const m = /^([a-z]+)_(gain|share|amount)$/.exec(name);
  return m && side.names.includes(m[1]) ? m[1] : null;
}

const DECISIONS: Record<string, string> = {accept: "Accept the offer", reject: "Reject the offer", outside: "Leave and trade with the outside party instead"};

/** What a choice's option says to a person. */
export function optionLabel(field: string, value: string): string {
  if (field === "decision" && value in DECISIONS) return DECISIONS[value];
  if (field === "claim") return `The product is ${value} quality`;
  return value === "" ? "(none)" : value.charAt(0).toUpperCase() + value.slice(1);
}

/** What a move type says to a person ("offer" → "Make an offer"). */
export function moveLabel(type: string): string {
  const words: Record<string, string> = {offer: "Make an offer", decision: "Answer the offer", message: "Send a message"};
  return words[type] ?? fieldLabel(type);
}

/** A field's label from the person's side ("You get ($)", "Alice gets ($)", "Message to Alice (optional)"). */
export function fieldLabelFor(f: FieldModel, side: Side): string {
  const seat = fieldSeat(f.name, side);
  const unit = side.unit ? ` (${side.unit})` : "";
  if (seat !== null) return seat === side.me ? `You get${unit}` : `${seatLabel(seat, side.names.indexOf(seat))} gets${unit}`;
  if (f.name === "price") return `Price${unit}`;
  if (f.name === "decision") return "Your answer";
  if (f.name === "claim") return "What you tell the buyer";
  if (f.kind === "text") {
    const others = side.names.filter((n) => n !== side.me);
    const to = others.length === 1 ? ` to ${seatLabel(others[0], side.names.indexOf(others[0]))}` : "";
    return f.name === "message" ? `Message${to}${f.required ? "" : " (optional)"}` : `${f.label}${f.required ? "" : " (optional)"}`;
  }
  return f.label;
}

/** The form with its fields labelled from the person's side, their own share first. */
export function personForm(form: ActionForm, side: Side): ActionForm {
  const mine = (f: FieldModel) => (fieldSeat(f.name, side) === side.me && side.me !== null ? 0 : 1);
  const relabel = (f: FieldModel): FieldModel => {
    const label = fieldLabelFor(f, side);
    return f.kind === "choice" ? {...f, label, options: f.options.map((o) => ({...o, label: optionLabel(f.name, o.value)}))} : {...f, label};
  };
  const fields = form.fields.map((f, i) => ({f, i})).sort((a, b) => mine(a.f) - mine(b.f) || a.i - b.i).map(({f}) => relabel(f));
  return {...form, label: moveLabel(form.type), fields};
}

/** One move in words, from the person's side: "you get $600, Alice gets $400", "accepted", "a price of $90". */
export function actionWords(action: Record<string, unknown>, side: Side): string {
  const parts: string[] = [];
  const shares = Object.entries(action).filter(([k, v]) => fieldSeat(k, side) !== null && typeof v === "number");
  shares.sort(([a], [b]) => (fieldSeat(a, side) === side.me ? -1 : fieldSeat(b, side) === side.me ? 1 : 0));
  for (const [k, v] of shares) {
    const seat = fieldSeat(k, side)!;
    parts.push(`${seat === side.me ? "you get" : `${seatLabel(seat, side.names.indexOf(seat))} gets`} ${amount(v as number, side.unit)}`);
  }
  if (typeof action.price === "number") parts.push(`a price of ${amount(action.price, side.unit)}`);
  if (typeof action.decision === "string") parts.push({accept: "accepted", reject: "rejected", outside: "left to trade with the outside party"}[action.decision] ?? action.decision);
  if (typeof action.claim === "string") parts.push(`said the product is ${action.claim} quality`);
  for (const [k, v] of Object.entries(action)) {
    if (["type", "message", "text", "price", "decision", "claim"].includes(k) || fieldSeat(k, side) !== null) continue;
    if (v === null || v === undefined) continue;
    parts.push(`${fieldLabel(k).toLowerCase()} ${Array.isArray(v) ? v.map((x) => (typeof x === "number" ? plainNumber(x) : String(x))).join(", ") : typeof v === "number" ? plainNumber(v) : String(v)}`);
  }
  const said = typeof action.message === "string" && action.message.trim() ? action.message : typeof action.text === "string" && action.text.trim() ? action.text : null;
  const head = parts.length ? parts.join(", ") : fieldLabel(String(action.type ?? "move")).toLowerCase();
  return said === null ? head : `${head}, with the message “${said}”`;
}

/** The words of a move by `who` ("You offered: …", "Alice accepted"). */
export function moveSentence(who: string, action: Record<string, unknown>, side: Side): string {
  const words = actionWords(action, side);
  const end = /[.!?]”$/.test(words) ? "" : ".";
  if (action.type === "offer") return `${who} offered: ${words}${end}`;
  if (action.type === "decision") return `${who} ${words}${end}`;
  return `${who}: ${words}${end}`;
}

/** A GLEE view's public events as sentences, oldest first, "You" for the person; the offer now standing is left to `situation`. */
export function historyLines(view: unknown, side: Side): string[] {
  const v = view as {history?: unknown; offer?: unknown} | null;
  const all = v?.history;
  if (!Array.isArray(all)) return [];
  const last = all[all.length - 1] as {player?: unknown; action?: {type?: unknown}} | undefined;
  const standing = v?.offer && last && last.player !== side.me && last.action?.type === "offer";
  const history = standing ? all.slice(0, -1) : all;
  return history.flatMap((e: {round?: unknown; player?: unknown; action?: unknown}) => {
    if (typeof e?.player !== "string" || typeof e.action !== "object" || e.action === null) return [];
    const who = e.player === side.me ? "You" : seatLabel(e.player, side.names.indexOf(e.player));
    return [`Round ${e.round}: ${moveSentence(who, e.action as Record<string, unknown>, side)}`];
  });
}

/** What a share is worth to the person in `round` with factor `delta` per round gone by: share · δ^(round − 1). */
export function discounted(share: number, delta: number, round: number): number {
  return share * delta ** (round - 1);
}

/**
 * The situation now in sentences (GLEE's games; null for others): whose
 * turn, the standing offer and what it is worth to the person now.
 */
export function situation(game: string, view: unknown, round: number, side: Side): string[] | null {
  const v = view as Record<string, unknown> | null;
  if (!v || typeof v !== "object" || !game.startsWith("glee/")) return null;
  const unit = side.unit;
  const other = side.names.find((n) => n !== side.me) ?? null;
  const otherName = seatLabel(other, side.names.indexOf(other ?? ""));
  const of = typeof v.horizon === "number" ? ` of ${v.horizon}` : "";
  const lines = [`Round ${round}${of}.`];
  if (v.family === "bargaining" && typeof v.money === "number" && typeof v.delta_self === "number") {
    const delta = v.delta_self;
    const factor = discounted(1, delta, round);
    const offer = v.offer as Record<string, unknown> | null;
    const mineKey = `${side.me}_gain`;
    if (offer && typeof offer[mineKey] === "number") {
      const share = offer[mineKey] as number;
      lines.push(`${otherName} offers: ${actionWords(offer, side)}.`);
      lines.push(round === 1
        ? `Accepting now gives you ${amount(share, unit)}.`
        : `Money is worth less to you each round (×${plainNumber(delta)} per round): in round ${round}, ${amount(share, unit)} is worth ${amount(discounted(share, delta, round), unit)} to you.`);
    } else {
      lines.push(`Your turn to propose how to divide ${amount(v.money, unit)} between you and ${otherName}.`);
      if (round > 1) lines.push(`Money is worth less to you each round (×${plainNumber(delta)} per round): in this round every ${amount(100, unit)} you get is worth ${amount(100 * factor, unit)} to you.`);
    }
    return lines;
  }
  if (v.family === "negotiation" && typeof v.value_self === "number") {
    lines.push(`The product is worth ${amount(v.value_self, unit)} to you.`);
    const offer = v.offer as Record<string, unknown> | null;
    if (offer && typeof offer.price === "number") lines.push(`${otherName} proposes ${actionWords(offer, side)}.`);
    else lines.push(`Your turn to name a price.`);
    return lines;
  }
  if (v.family === "persuasion") {
    if (typeof v.quality === "string") lines.push(`This round's product is of ${v.quality} quality (only you know this).`);
    const signal = v.signal as Record<string, unknown> | null;
    if (signal) lines.push(`${otherName} says: ${actionWords(signal, side)}.`);
    return lines;
  }
  return lines;
}

/** A model's prompt turned into reading for a person (games without `situation`): answer-format lines (JSON) left out, "#" marks dropped. */
export function promptForPeople(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/[{[]\s*"[^"]+"\s*:/.test(line))
    .map((line) => line.replace(/^\s*#+\s*/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The outcome as the person reads it (the games and players rows of their game; `seat` theirs). */
export function outcomeWords(game: string, params: Record<string, unknown>, row: Record<string, unknown>, players: readonly Record<string, unknown>[], seat: number, side: Side): string[] {
  const unit = side.unit;
  const rounds = Number(row.rounds);
  const other = side.names.find((n) => n !== side.me) ?? null;
  const otherName = other ? seatLabel(other, side.names.indexOf(other)) : "the other players";
  const roundsText = `${plainNumber(rounds)} round${rounds === 1 ? "" : "s"}`;
  if ((game === "glee/bargaining" || game === "glee/negotiation") && side.me) {
    if (row.agreement !== true) return [`You and ${otherName} did not reach an agreement in ${roundsText}, so neither of you gets anything.`];
    if (game === "glee/bargaining") {
      const share = Number(row[`${side.me}_gain`]);
      const delta = Number(params[side.me === "alice" ? "delta_a" : "delta_b"]);
      const lines = [`You and ${otherName} agreed in round ${plainNumber(rounds)}: you get ${amount(share, unit)} of ${amount(Number(params.money), unit)}.`];
      if (rounds > 1 && Number.isFinite(delta)) lines.push(`Since money was worth less each round (×${plainNumber(delta)} per round), that is worth ${amount(discounted(share, delta, rounds), unit)} to you.`);
      return lines;
    }
    const price = Number(row.price ?? row.final_price);
    return [Number.isFinite(price) ? `You and ${otherName} agreed on a price of ${amount(price, unit)} in round ${plainNumber(rounds)}.` : `You and ${otherName} agreed in round ${plainNumber(rounds)}.`];
  }
  const mine = players.find((p) => p.seat === seat);
  const ret = typeof mine?.return === "number" ? mine.return : null;
  return [`The game is over after ${roundsText}.${ret === null ? "" : ` Your score: ${plainNumber(ret)}.`}`];
}
