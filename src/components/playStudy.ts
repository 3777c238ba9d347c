/**
 * A participant's page of a `parley play` experiment (served by the
 * experiment server, bundled by loaders/study/assets.ts): the study's screens
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
import {el, PlayView} from "./playView.js";
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
    root.append(el("h1", {textContent: state.title}));
    const screen = el("section", {className: `parley-step parley-step-${state.step}`});
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
        screen.append(el("p", {textContent: "Thank you: you have completed the study. Your completion code is:"}));
        screen.append(el("p", {className: "parley-code", textContent: state.completion_code ?? ""}));
        return;
      }
      default:
        screen.append(el("p", {className: "parley-stopped", textContent: state.message ?? ""}));
    }
  };

  const reload = async () => {
    try {
      show(await api.state());
    } catch (error) {
      root.replaceChildren(el("p", {className: "parley-error", textContent: `Could not load the study: ${(error as Error).message}`}));
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
      screen.append(el("p", {className: "parley-error", textContent: "The other player could not be reached. Your moves are saved; please try again in a moment."}));
      const again = el("button", {className: "parley-retry", textContent: "Try again"});
      const status = el("p", {className: "parley-error"});
      again.addEventListener("click", () => void submit("/retry", {}, status, again));
      screen.append(again, status);
      return;
    }
    const driver = remoteDriver(api, state, {
      movedOn: (next) => {
        const go = el("button", {className: "parley-continue", textContent: next.step === "quiz" ? "Continue to the last question" : "Continue"});
        go.addEventListener("click", () => show(next));
        screen.append(go);
      },
      failed: (next) => show(next),
    });
    screen.append(PlayView(driver));
  }

  function consentScreen(screen: HTMLElement, state: StudyState): void {
    for (const paragraph of (state.consent ?? "").split(/\n\s*\n/)) screen.append(el("p", {textContent: paragraph}));
    const status = el("p", {className: "parley-error"});
    const agree = el("button", {type: "button", className: "parley-agree", textContent: "I agree to take part"});
    const decline = el("button", {type: "button", className: "parley-decline", textContent: "I do not agree"});
    agree.addEventListener("click", () => void submit("/consent", {agree: true}, status, agree));
    decline.addEventListener("click", () => void submit("/consent", {agree: false}, status, decline));
    screen.append(el("div", {className: "parley-buttons"}, agree, decline), status);
  }

  function instructionsScreen(screen: HTMLElement, state: StudyState): void {
    screen.append(el("h2", {textContent: "Instructions"}));
    for (const paragraph of state.instructions ?? []) screen.append(el("p", {textContent: paragraph}));
    const form = el("form", {className: "parley-attention"});
    const status = el("p", {className: "parley-error"});
    const button = el("button", {type: "submit", textContent: "Start the game"});
    const input = el("input", {name: "answer", autocomplete: "off"});
    if (state.attention) form.append(el("label", {}, "Your answer ", input));
    form.append(button, status);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void submit("/attention", {answer: input.value}, status, button);
    });
    screen.append(form);
  }

  function quizScreen(screen: HTMLElement, state: StudyState): void {
    screen.append(el("h2", {textContent: "One last question"}));
    const form = el("form", {className: "parley-quiz"});
    const quiz = state.quiz ?? [];
    quiz.forEach((q, i) => {
      const options = q.options.map((option, k) => el("label", {}, el("input", {type: "radio", name: `q${i}`, value: String(k)}), ` ${option}`));
      form.append(el("fieldset", {}, el("legend", {textContent: q.question}), ...options));
    });
    const status = el("p", {className: "parley-error"});
    const button = el("button", {type: "submit", textContent: "Submit"});
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
