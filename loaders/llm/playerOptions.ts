/**
 * The values of the player options that some papers' prompts vary (the
 * prompts themselves are the papers' narrators'): NegotiationArena (Bianchi
 * et al. 2024) §4's behavioural personas (papers/negotiationarena/personas.ts),
 * and Game-theoretic LLM workflows (Hua et al. 2024) §6.3's personalities of
 * the system prompt and §6.5's six negotiation suffixes
 * (papers/gtllm/narrator.ts). No imports: the narrators that use them run
 * in the browser too (the play page).
 */
export const personaNames = ["cunning", "desperate"] as const;
export type PersonaName = (typeof personaNames)[number];
export const PERSONALITIES = ["compassionate", "friendly", "helpful", "pragmatic", "rational", "witty"] as const;
export type Personality = (typeof PERSONALITIES)[number];
export const NEGOTIATION_SUFFIX_COUNT = 6;
/**
 * Where a paper's sources of prompt words differ (its printed prompts, the
 * authors' code), which one a player follows; absent: the narrator's
 * default, the words that produced the published data (each paper's Guide
 * page lists what each choice changes).
 */
export const PROMPT_SOURCES = ["paper", "code"] as const;
export type PromptSource = (typeof PROMPT_SOURCES)[number];
