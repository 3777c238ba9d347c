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
import {el} from "./playView.js";
import {outcomeView, PersonPlayView} from "./playPerson.js";
import type {PlayRecord} from "./playDriver.js";

export interface StudyState {
  title: string;
  step: string;
  participant: string;
  consent?: string;
  consent_note?: string | null;
  instructions?: string[];
  attention?: boolean;
  game?: RemoteGame;
  outcome?: PlayRecord;
  quiz?: {question: string; options: string[]}[];
  completion_code?: string | null;
  message?: string;
  results?: {heading: string; text: string[]; show_outcome: boolean};
  return_url?: string | null;
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
      case "done":
        return doneScreen(screen, state);
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
    const seatNames = state.game?.seat_names ?? [];
    const driver = remoteDriver(api, state, {
      movedOn: (next) => {
        const go = el("button", {type: "button", className: "parley-continue", textContent: next.step === "quiz" ? "Continue to the last question" : "Continue"});
        go.addEventListener("click", () => show(next));
        screen.append(go);
        go.scrollIntoView({block: "nearest"});
      },
      failed: (next) => show(next),
    });
    screen.append(PersonPlayView(driver, {seatNames}));
  }

  function consentScreen(screen: HTMLElement, state: StudyState): void {
    for (const paragraph of (state.consent ?? "").split(/\n\s*\n/)) screen.append(el("p", {textContent: paragraph}));
    if (state.consent_note) screen.append(el("p", {className: "parley-consent-note", textContent: state.consent_note}));
    const status = el("p", {className: "parley-error", role: "alert"});
    const agree = el("button", {type: "button", className: "parley-agree", textContent: "I agree to take part"});
    const decline = el("button", {type: "button", className: "parley-decline", textContent: "I do not agree"});
    const buttons = el("div", {className: "parley-buttons"}, agree, decline);
    agree.addEventListener("click", () => void submit("/consent", {agree: true}, status, agree));
    // Declining is asked once more: a slip of the finger should not end the study for good.
    decline.addEventListener("click", () => {
      const sure = el("button", {type: "button", className: "parley-decline-sure", textContent: "Yes, I do not want to take part"});
      const back = el("button", {type: "button", className: "parley-decline-back", textContent: "Go back"});
      const ask = el("div", {className: "parley-confirm", role: "group"}, el("p", {textContent: "Are you sure you do not want to take part? You cannot come back to this study afterwards."}), sure, back);
      ask.setAttribute("aria-label", "Confirm");
      sure.addEventListener("click", () => void submit("/consent", {agree: false}, status, sure));
      back.addEventListener("click", () => {
        ask.replaceWith(buttons);
        decline.focus();
      });
      buttons.replaceWith(ask);
      sure.focus();
    });
    screen.append(buttons, status);
  }

  function instructionsScreen(screen: HTMLElement, state: StudyState): void {
    screen.append(el("h2", {textContent: "Instructions"}));
    for (const paragraph of state.instructions ?? []) screen.append(el("p", {textContent: paragraph}));
    const form = el("form", {className: "parley-attention"});
    const status = el("p", {className: "parley-error", role: "alert"});
    const button = el("button", {type: "submit", textContent: "Start the game"});
    const input = el("input", {name: "answer", id: "parley-answer", autocomplete: "off"});
    if (state.attention) form.append(el("label", {htmlFor: "parley-answer", textContent: "Your answer"}), input);
    form.append(button, status);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      // An empty box is asked again (the server refuses it too, changing nothing).
      if (state.attention && input.value.trim() === "") {
        status.textContent = "Please type the code word the instructions ask for.";
        input.focus();
        return;
      }
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
    const status = el("p", {className: "parley-error", role: "alert"});
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

  /** The end: the experimenter's words, the outcome in words, the completion code with a copy button, and the panel's return link. */
  function doneScreen(screen: HTMLElement, state: StudyState): void {
    const results = state.results ?? {heading: "Thank you", text: ["You have completed the study."], show_outcome: true};
    screen.append(el("h2", {textContent: results.heading}));
    for (const paragraph of results.text) screen.append(el("p", {textContent: paragraph}));
    if (results.show_outcome && state.outcome?.rows) screen.append(outcomeView(state.outcome, state.game?.seat_names ?? state.outcome.rows.players.map((p) => String(p.seat_name ?? ""))));
    if (state.message) screen.append(el("p", {className: "parley-note", textContent: state.message}));
    const code = state.completion_code ?? "";
    const codeBox = el("div", {className: "parley-code-box"});
    codeBox.append(el("p", {id: "parley-code-label", textContent: "Your completion code:"}));
    const shown = el("p", {className: "parley-code", textContent: code});
    shown.setAttribute("aria-describedby", "parley-code-label");
    const copied = el("span", {className: "parley-copied", role: "status"});
    const copy = el("button", {type: "button", className: "parley-copy", textContent: "Copy the code"});
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(code);
        copied.textContent = "Copied.";
      } catch {
        // No clipboard (a plain-http page): select the code so that the person can copy it.
        const range = document.createRange();
        range.selectNodeContents(shown);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
        copied.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
      }
    });
    codeBox.append(shown, el("div", {className: "parley-buttons"}, copy, copied));
    screen.append(codeBox);
    if (state.return_url) screen.append(el("p", {}, el("a", {className: "parley-return", href: state.return_url, textContent: "Return to the study panel with your code"})));
  }

  void reload();
}
