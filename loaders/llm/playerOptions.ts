/**
 * The values of the player options that some papers' prompts vary (the
 * prompts themselves are the papers' narrators'): NegotiationArena (Bianchi
 * et al. 2024) §4's behavioural personas (papers/negotiationarena/personas.ts),
 * and Game-theoretic LLM workflows (Hua et al. 2024) §6.3's personalities of
 * the system prompt and §6.5's six negotiation suffixes
 * (papers/gtllm/narrator.ts), and which of the authors' sources a narrator
 * renders where their logged runs, code and paper disagree (`prompts`).
 * No imports: the narrators that use them run in the browser too (the play
 * page).
 */
export const personaNames = ["cunning", "desperate"] as const;
export type PersonaName = (typeof personaNames)[number];
export const PERSONALITIES = ["compassionate", "friendly", "helpful", "pragmatic", "rational", "witty"] as const;
export type Personality = (typeof PERSONALITIES)[number];
export const NEGOTIATION_SUFFIX_COUNT = 6;

/**
 * The sources of a prompt besides the default (the words the published runs
 * sent where they were logged, else the authors' code): "paper", the paper's
 * printed text; "code", the authors' code. Which ones a game offers is its
 * narrator's `prompts`.
 */
export const PROMPT_SOURCES = ["paper", "code"] as const;
export type PromptSource = (typeof PROMPT_SOURCES)[number];

/**
 * How a conversation is laid out across a game's calls (an LLM player's
 * `prompt_layout`): "authors", the papers' own layout, byte for byte (GLEE
 * (Shapira et al. 2024) rewrites its system message every turn with that
 * turn's answer format); "fixed-system", one system message for the whole
 * game and the answer format of this turn at the end of the conversation,
 * after this turn's user message, so that every call repeats the previous
 * call's prompt (but that format) as its prefix and a provider's prompt
 * cache can serve it. Games whose system message never changes are the
 * same in both.
 */
export const PROMPT_LAYOUTS = ["authors", "fixed-system"] as const;
export type PromptLayout = (typeof PROMPT_LAYOUTS)[number];
