/** The LLM response cache: entries persist across instances, a line cut short by a kill is ignored. */
import {test} from "node:test";
import assert from "node:assert/strict";
import {appendFileSync, mkdtempSync, readdirSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {ResponseCache, cacheKey} from "../../loaders/llm/cache.js";
import type {Completion} from "../../loaders/llm/types.js";

const completion = (text: string): Completion => ({text, usage: {input_tokens: 3, output_tokens: 2}, finish_reason: "stop", latency_ms: 42, cached: false, attempts: 2});
const parts = {provider: "openai" as const, model: "m", sample: "1/g/alice"};
const key = (n: number) => cacheKey({...parts, sampling: {max_tokens: 10}, messages: [{role: "user", content: `q${n}`}]});

test("entries survive reopening, in order, and misses cost nothing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-cache-"));
  try {
    const a = new ResponseCache(dir);
    assert.equal(await a.get(key(1)), null);
    await a.put(key(1), parts, completion("one"));
    await a.put(key(2), parts, completion('two, with "quotes" and ünïcode\nand a newline'));
    assert.deepEqual(await a.get(key(1)), {...completion("one"), cached: true, attempts: 0});
    a.close();
    const b = new ResponseCache(dir);
    assert.equal(b.size, 2);
    assert.equal((await b.get(key(2)))?.text, 'two, with "quotes" and ünïcode\nand a newline');
    assert.equal((await b.get(key(2)))?.latency_ms, 42);
    // A second process writes its own segment.
    await b.put(key(3), parts, completion("three"));
    b.close();
    assert.equal(readdirSync(dir).length, 2);
    assert.equal(new ResponseCache(dir).size, 3);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});

test("a line cut short by a kill is not an entry; the entries before it are", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-cache-"));
  try {
    const a = new ResponseCache(dir);
    await a.put(key(1), parts, completion("one"));
    a.close();
    const [segment] = readdirSync(dir);
    appendFileSync(join(dir, segment!), `{"key": "${key(2)}", "text": "tw`);
    const b = new ResponseCache(dir);
    assert.equal(b.size, 1);
    assert.equal((await b.get(key(1)))?.text, "one");
    assert.equal(await b.get(key(2)), null);
  } finally {
    rmSync(dir, {recursive: true, force: true});
  }
});
