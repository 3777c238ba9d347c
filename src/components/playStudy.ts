/**
 * A participant's page of a `parley play` experiment (served by the
 * experiment server, bundled by loaders/play/assets.ts): the study's screens
 * in GLEE's order (GLEE (Shapira et al. 2024) Appendix E.1): consent,
 * instructions with the attention check's box at their end, the game (the
 * /play page's components, driven over HTTP by `remoteDriver`), the quiz and
 * the completion code. All text from the server (the experimenter's texts,
 * the game's narration, the other player's messages) is set with
 * textContent, never parsed as HTML.
 *
 * The participant's id is the last part of the page's path (/p/<id>); every
 * screen is fetched from /api/p/<id>, so a reload, or coming back later with
 * the same link, shows the step where the participant stands.
 */
import {remoteDriver, type RemoteGame, type StudyApi} from "./playRemote.js";
import {PlayView} from "./playView.js";
import type {PlayRecord} from "./playDriver.js";

export interface StudyState {
  title: string;
  step: string;
  participant: string;
  consent?: string;
  instructions?: string[];
  attention?: boolean;
  game?: RemoteGame;
  outcome?: PlayRecord;
  quiz?: {question: string; options: string[]}[];
  completion_code?: string | null;
  message?: string;
}

/** Creates an element with a class and text (textContent: never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The study's API for participant `id`: GET its state, POST a step's answer (JSON); errors carry the server's one line. */
export function studyApi(id: string): StudyApi<StudyState> {
  const base = `/api/p/${encodeURIComponent(id)}`;
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(base + path, body === undefined ? {credentials: "same-origin"} : {method: "POST", credentials: "same-origin", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
    const data = await response.json().catch(() => ({error: `HTTP ${response.status}`}));
    return {status: response.status, data: data as Record<string, unknown>};
  };
  return {
    state: async () => {
      const {status, data} = await call("");
      if (status !== 200) throw new Error(String(data.error ?? `HTTP ${status}`));
      return data as unknown as StudyState;
    },
    post: call,
  };
}

export function mountStudy(root: HTMLElement | null): void {
  if (!root) return;
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "");
  const api = studyApi(id);

  const show = (state: StudyState) => {
    root.replaceChildren();
    document.title = state.title;
    root.append(el("h1", "", state.title));
    const screen = el("section", `parley-step parley-step-${state.step}`);
    screen.dataset.step = state.step;
    root.append(screen);
    switch (state.step) {
      case "consent":
        return consentScreen(screen, state);
      case "instructions":
        return instructionsScreen(screen, state);
      case "game":
        return gameScreen(screen, state);
      case "quiz":
        return quizScreen(screen, state);
      case "done": {
        screen.append(el("p", "", "Thank you: you have completed the study. Your completion code is:"));
        screen.append(el("p", "parley-code", state.completion_code ?? ""));
        return;
      }
      default:
        screen.append(el("p", "parley-stopped", state.message ?? ""));
    }
  };

  const reload = async () => {
    try {
      show(await api.state());
    } catch (error) {
      root.replaceChildren(el("p", "parley-error", `Could not load the study: ${(error as Error).message}`));
    }
  };

  /** Posts a step's answer; shows the next screen, or the server's one-line refusal beside the button. */
  const submit = async (path: string, body: unknown, status: HTMLElement, button: HTMLButtonElement) => {
    button.disabled = true;
    status.textContent = "";
    try {
      const {status: code, data} = await api.post(path, body);
      if (code === 200) return show(data as unknown as StudyState);
      status.textContent = String(data.error ?? `HTTP ${code}`);
    } catch (error) {
      status.textContent = `Could not reach the server: ${(error as Error).message}`;
    }
    button.disabled = false;
  };

  /** The /play page's game view over the remote driver; once the game is over, its outcome and a button to go on. */
  function gameScreen(screen: HTMLElement, state: StudyState): void {
    if (state.game?.failed) {
      screen.append(el("p", "parley-error", "The other player could not be reached. Your moves are saved; please try again in a moment."));
      const again = el("button", "parley-retry", "Try again");
      const status = el("p", "parley-error");
      again.addEventListener("click", () => void submit("/retry", {}, status, again));
      screen.append(again, status);
      return;
    }
    const driver = remoteDriver(api, state, {
      movedOn: (next) => {
        const go = el("button", "parley-continue", next.step === "quiz" ? "Continue to the last question" : "Continue");
        go.addEventListener("click", () => show(next));
        screen.append(go);
      },
      failed: (next) => show(next),
    });
    screen.append(PlayView(driver));
  }

  function consentScreen(screen: HTMLElement, state: StudyState): void {
    for (const paragraph of (state.consent ?? "").split(/\n\s*\n/)) screen.append(el("p", "", paragraph));
    const agree = el("button", "parley-agree", "I agree to take part");
    const decline = el("button", "parley-decline", "I do not agree");
    const status = el("p", "parley-error");
    agree.type = decline.type = "button";
    agree.addEventListener("click", () => void submit("/consent", {agree: true}, status, agree));
    decline.addEventListener("click", () => void submit("/consent", {agree: false}, status, decline));
    screen.append(el("div", "parley-buttons"), status);
    screen.querySelector(".parley-buttons")!.append(agree, decline);
  }

  function instructionsScreen(screen: HTMLElement, state: StudyState): void {
    screen.append(el("h2", "", "Instructions"));
    for (const paragraph of state.instructions ?? []) screen.append(el("p", "", paragraph));
    const form = el("form", "parley-attention");
    const status = el("p", "parley-error");
    const button = el("button", "", "Start the game");
    button.type = "submit";
    const input = el("input");
    if (state.attention) {
      const label = el("label", "", "Your answer ");
      input.name = "answer";
      input.autocomplete = "off";
      label.append(input);
      form.append(label);
    }
    form.append(button, status);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void submit("/attention", {answer: input.value}, status, button);
    });
    screen.append(form);
  }

  function quizScreen(screen: HTMLElement, state: StudyState): void {
    screen.append(el("h2", "", "One last question"));
    const form = el("form", "parley-quiz");
    const quiz = state.quiz ?? [];
    quiz.forEach((q, i) => {
      const set = el("fieldset");
      set.append(el("legend", "", q.question));
      q.options.forEach((option, k) => {
        const label = el("label");
        const radio = el("input");
        radio.type = "radio";
        radio.name = `q${i}`;
        radio.value = String(k);
        label.append(radio, document.createTextNode(` ${option}`));
        set.append(label);
      });
      form.append(set);
    });
    const status = el("p", "parley-error");
    const button = el("button", "", "Submit");
    button.type = "submit";
    form.append(button, status);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const answers = quiz.map((_, i) => form.querySelector<HTMLInputElement>(`input[name="q${i}"]:checked`)?.value);
      if (answers.some((a) => a === undefined)) {
        status.textContent = "Please answer every question.";
        return;
      }
      void submit("/quiz", {answers: answers.map(Number)}, status, button);
    });
    screen.append(form);
  }

  void reload();
}
