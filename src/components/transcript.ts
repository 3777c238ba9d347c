/**
 * A dialogue as a list of speech bubbles. Every utterance is inserted with
 * textContent, so text written by agents or people (which may contain HTML
 * such as `<img onerror=…>`) is always shown as literal text.
 */
export interface TranscriptTurn {
  turn: number;
  player: string;
  action?: string | null;
  text: string | null;
  /** Private reasoning, shown apart from the public message when present. */
  reasoning?: string | null;
}

export function Transcript(turns: TranscriptTurn[], {names = {} as Record<string, string>} = {}): HTMLElement {
  const root = document.createElement("div");
  root.className = "parley-transcript";
  // A log: screen readers announce turns added to it, and name it.
  root.setAttribute("role", "log");
  root.setAttribute("aria-label", "Transcript");
  if (!turns.length) {
    root.textContent = "No turns recorded for this game.";
    return root;
  }
  for (const t of [...turns].sort((a, b) => a.turn - b.turn)) {
    const item = document.createElement("div");
    item.className = `parley-turn parley-turn-${t.player}`;
    const who = document.createElement("span");
    who.className = "parley-speaker";
    who.textContent = names[t.player] ?? t.player;
    const text = document.createElement("span");
    text.className = t.action && t.action !== "message" ? "parley-action" : "parley-text";
    text.textContent = t.text ?? "";
    item.append(who, text);
    if (t.reasoning) {
      const reasoning = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "hidden reasoning";
      const body = document.createElement("p");
      body.textContent = t.reasoning;
      reasoning.append(summary, body);
      item.append(reasoning);
    }
    root.append(item);
  }
  return root;
}
