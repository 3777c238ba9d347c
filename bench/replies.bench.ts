/**
 * Reading a model's reply, as every call of an LLM player does: the
 * `<think>` blocks taken out (reasoning.ts splitThink, in complete.ts), then
 * the JSON answer found (parseReply.ts splitReply). Printed: the CPU per
 * reply for five ordinary replies (median of 5 trials), and for replies no
 * model should send (megabytes of back-ticks, a fence followed by blanks,
 * JSON nested deep, thousands of tags) the CPU per megabyte at a quarter of
 * a megabyte and at two megabytes, with their ratio: about 1 when reading
 * is linear in the reply (a backtracking pattern or a rescan makes it grow
 * with the size).
 */
import {splitReply} from "../loaders/llm/parseReply.js";
import {splitThink} from "../loaders/llm/reasoning.js";

const read = (text: string) => splitReply(splitThink(text).text);

const ordinary = [
  'Here is my answer.\n```json\n{"alice_gain": 50, "bob_gain": 50, "message": "Let\'s split it evenly."}\n```',
  '{"decision": "accept"}',
  `<reasoning>Bob discounts more, so I can ask for more. ${"He will probably accept 60/40 given the discount factors. ".repeat(20)}</reasoning>\n{"alice_gain": 600, "bob_gain": 400, "message": "Take it."}`,
  `<think>${"Let me think about this carefully. ".repeat(60)}</think>\n\n{"chosen_number": "33"}`,
  `I think ${"the other player will cooperate. ".repeat(40)}{"decision": "reject"} and then maybe {"decision": "accept"}`,
];

/** CPU microseconds of `f` per call over `rounds` calls. */
function cpuPerCall(f: () => void, rounds: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / rounds;
}

const fill = (unit: string, bytes: number, before = "", after = "") => before + unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes) + after;
const nested = (open: string, close: string, bytes: number) => open.repeat(bytes / (2 * open.length)) + "1" + close.repeat(bytes / (2 * open.length));

const pathological: Record<string, (bytes: number) => string> = {
  "back-ticks": (b) => fill("`", b),
  "a fence, then blanks": (b) => fill(" \t", b, "```json"),
  "JSON nested deep": (b) => nested('{"a":', "}", b),
  "an answer with a deep message": (b) => `{"decision": "accept", "message": ${nested('{"a":', "}", b)}}`,
  "unclosed braces": (b) => fill("{", b),
  "<think> blocks": (b) => fill("<think>a</think>", b),
  "blanks, no closing tag": (b) => fill(" ", b, "", "x"),
  "reasoning tags": (b) => fill("<reasoning>", b),
  "broken spans": (b) => fill("{x} ", b),
};

export default async function (): Promise<void> {
  for (let i = 0; i < 2000; i++) for (const r of ordinary) read(r);
  const trials = Array.from({length: 5}, () => cpuPerCall(() => ordinary.forEach(read), 4000) / ordinary.length).sort((a, b) => a - b);
  console.log(`ordinary replies (${ordinary.length}, 90 to 2,400 characters): ${trials[2].toFixed(1)} µs CPU per reply (median of 5 trials, range ${trials[0].toFixed(1)} to ${trials[4].toFixed(1)})`);
  const MiB = 2 ** 20;
  console.log("pathological replies: CPU ms per MiB at 0.25 MiB and at 2 MiB, and their ratio (about 1: linear)");
  for (const [name, make] of Object.entries(pathological)) {
    const perMiB = [MiB / 4, 2 * MiB].map((bytes) => {
      const text = make(bytes);
      read(text);
      return cpuPerCall(() => read(text), 3) / 1000 / (bytes / MiB);
    });
    console.log(`  ${name.padEnd(30)} ${perMiB[0].toFixed(1).padStart(7)} ${perMiB[1].toFixed(1).padStart(7)}   ${(perMiB[1] / perMiB[0]).toFixed(2)}`);
  }
}
