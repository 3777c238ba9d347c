// Credentials in URLs are never printed (loaders/io/printable.ts redactUrl): `--mirror` of
// `parley datasets fetch`, a player's base_url in errors and in run manifests.
import {test} from "node:test";
import assert from "node:assert/strict";
import {redactUrl, redactUrls} from "../../loaders/io/printable.js";
import {parseLlmPlayerSpec} from "../../loaders/llm/playerSpec.js";

test("user names, passwords and secret query values are left out; everything else is kept", () => {
  assert.equal(redactUrl("https://reader:s3cret@mirror.example.org/datasets/"), "https://***@mirror.example.org/datasets/");
  assert.equal(redactUrl("http://token@127.0.0.1:8000/v1"), "http://***@127.0.0.1:8000/v1");
  assert.equal(redactUrl("https://bucket.example/x.txt?X-Amz-Signature=abc&X-Amz-Credential=key&part=2"), "https://bucket.example/x.txt?X-Amz-Signature=***&X-Amz-Credential=***&part=2");
  assert.equal(redactUrl("https://example.org/a?token=t0k&page=1"), "https://example.org/a?token=***&page=1");
  assert.equal(redactUrl("https://example.org/plain/path?q=1"), "https://example.org/plain/path?q=1", "nothing secret: unchanged");
  assert.equal(redactUrl("/data/mirror"), "/data/mirror", "a path is not a URL");
  assert.equal(redactUrl("http://user:pa ss@[bad"), "http://***@[bad", "unparseable: still no user:password");
  assert.deepEqual(redactUrls({players: [{base_url: "http://u:p@h/v1"}, "fair"], n: 3}), {players: [{base_url: "http://***@h/v1"}, "fair"], n: 3});
});

test("conflicting limits on an endpoint are named without its credentials", async () => {
  const {checkSharedLimits} = await import("../../loaders/runner/llmPlayers.js");
  const url = "http://user:s3cret@127.0.0.1:9/v1";
  const a = parseLlmPlayerSpec({id: "a", provider: "openai", model: "m1", base_url: url, requests_per_minute: 60}, "p");
  const b = parseLlmPlayerSpec({id: "b", provider: "openai", model: "m2", base_url: url, requests_per_minute: 30}, "p");
  assert.throws(() => checkSharedLimits([a, b]), (e: Error) => /share the endpoint openai http:\/\/\*\*\*@127\.0\.0\.1:9\/v1 but/.test(e.message) && !e.message.includes("s3cret"));
});
