/**
 * What a run's LLM calls cost, and `--max-cost`: a budget that holds with
 * any number of calls in flight. Before each request is sent (llm/complete.ts
 * asks; a cached answer sends none and costs nothing) the most it can cost
 * is reserved: its input bound and output limit (llm/callBound.ts) at the
 * player's price, input at the highest of the input, cached-input and
 * cache-write prices. A reservation that would take the run's spend
 * (earlier processes', settled calls', reservations outstanding) past the
 * budget is refused: that call is not sent (BudgetExhausted). Each
 * reservation is in the run's spend journal (runner/spendJournal.ts) on disk
 * before its call goes out, and settled after with the call's real cost
 * (src/lib/agentCost.ts's `tokenCost` of its usage) — or kept at the
 * reserved amount when the usage is unknown (llm/usage.ts) or the answer
 * was lost on the way (a timeout: the endpoint may have billed it).
 *
 * So the spend can pass `--max-cost` only if an endpoint bills more than a
 * request allows (more input tokens than its bytes, more output than its
 * limit).
 */
import {BudgetExhausted, LlmCallError, type BudgetedRequest, type CallBudget, type Usage} from "../llm/types.js";
import {inputBound, outputLimit} from "../llm/callBound.js";
import {usageKnown} from "../llm/usage.js";
import {priceKey, tokenCost, type Price, type PriceTable} from "./cost.js";
import type {SpendJournal} from "./spendJournal.js";
import {samplingOf, type LlmPlayerSpec} from "../llm/playerSpec.js";

interface Ticket {
  id: number;
  usd: number;
  price: Price;
  player: string;
}

/** Dollars, as the budget's messages print them. */
export const dollars = (usd: number): string => `$${usd.toFixed(usd < 0.01 && usd > 0 ? 6 : 2)}`;

/** The most a request can cost at `price`: its input bound at the dearest input rate, its output limit at the output rate. */
export function reservationCost(price: Price, request: Pick<BudgetedRequest, "provider" | "model" | "messages" | "sampling">): number {
  const output = outputLimit(request.provider, request.model, request.sampling);
  if (output === null) throw new LlmCallError(`${request.provider} ${request.model}: the request has no limit on its output, so --max-cost cannot bound its cost`, "config", null, 0);
  const inputRate = Math.max(price.input_per_million, price.cached_input_per_million ?? 0, price.cache_write_per_million ?? 0);
  return (inputBound(request.messages, request.sampling) * inputRate + output * price.output_per_million) / 1e6;
}

/** Players none of whose calls has a limit on its output: --max-cost cannot bound what they cost. */
export function unboundedPlayers(players: readonly LlmPlayerSpec[]): LlmPlayerSpec[] {
  return players.filter((p) => outputLimit(p.provider, p.model, samplingOf(p)) === null);
}

export class RunBudget implements CallBudget<Ticket | null> {
  private settled = 0;
  private outstanding = 0;
  private next = 1;
  private readonly perPlayer: Record<string, number> = {};
  /** The first reservation refused: what it needed and what was committed then. */
  refused: {usd: number; committed: number} | null = null;

  constructor(
    private readonly prices: PriceTable,
    /** null: no budget, the spend is only recorded. */
    readonly maxCost: number | null,
    private readonly journal: SpendJournal,
  ) {}

  /** Dollars spent by earlier processes of the run. */
  get earlier(): number {
    return this.journal.earlier;
  }

  /** The run's spend so far: earlier processes', this one's settled calls, and its reservations still outstanding. */
  get committed(): number {
    return this.journal.earlier + this.settled + this.outstanding;
  }

  /** This process's spend on calls answered (or lost) so far. */
  get settledHere(): number {
    return this.settled;
  }

  /** This process's spend per player (settled calls; unknown usage at its reservation). */
  get players(): Record<string, number> {
    return {...this.perPlayer};
  }

  async reserve(request: BudgetedRequest): Promise<Ticket | null> {
    const price = this.prices.get(priceKey(request.provider, request.model));
    if (!price) return null; // an unpriced player (only without --max-cost, which needs every price)
    const usd = reservationCost(price, request);
    if (this.maxCost !== null && this.committed + usd > this.maxCost) {
      this.refused ??= {usd, committed: this.committed};
      throw new BudgetExhausted(`--max-cost ${dollars(this.maxCost)}: a call of ${request.player} may cost up to ${dollars(usd)} and ${dollars(this.committed)} is spent or reserved`);
    }
    const ticket = {id: this.next++, usd, price, player: request.player};
    this.outstanding += usd;
    try {
      await this.journal.reserve(ticket.id, usd);
    } catch (error) {
      this.outstanding -= usd;
      throw new LlmCallError((error as Error).message, "client", null, 0);
    }
    return ticket;
  }

  settle(ticket: Ticket | null, usage: Usage | null): void {
    if (!ticket) return;
    const usd = usage && usageKnown(usage) ? tokenCost(ticket.price, usage as Parameters<typeof tokenCost>[1]) : ticket.usd;
    this.outstanding -= ticket.usd;
    this.settled += usd;
    this.perPlayer[ticket.player] = (this.perPlayer[ticket.player] ?? 0) + usd;
    this.journal.settle(ticket.id, usd);
  }

  /** Writes the rest of the journal and folds it into the run's spend record. */
  close(): Promise<void> {
    return this.journal.close();
  }
}
