// The output-directory lock (loaders/io/outputLock.ts) on real files and real pids.
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from "node:fs";
import {hostname, tmpdir, uptime} from "node:os";
import {join} from "node:path";
import {lockOutput, lockPath, OutputLocked} from "../../loaders/io/outputLock.js";

function outDir(): string {
  return mkdtempSync(join(tmpdir(), "parley-lock-"));
}

function plant(out: string, holder: unknown): string {
  mkdirSync(join(out, ".parley"), {recursive: true});
  writeFileSync(lockPath(out), typeof holder === "string" ? holder : JSON.stringify(holder));
  return lockPath(out);
}

test("a held lock refuses a second holder with one line naming the pid; release frees it", () => {
  const out = outDir();
  const lock = lockOutput(out, "run");
  assert.equal(lock.note, null);
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(lock.path, "utf8"))), ["pid", "host", "started", "command"]);
  assert.throws(
    () => lockOutput(out, "ingest"),
    (e: Error) => e instanceof OutputLocked && !e.message.includes("\n") && e.message.startsWith(`${out} is in use by parley run (pid ${process.pid} on ${hostname()}, started `) && e.message.endsWith(`stop it (kill -INT ${process.pid}), or use another --out`),
  );
  lock.release();
  lock.release();
  assert.equal(existsSync(lock.path), false);
  lockOutput(out, "run").release();
  assert.deepEqual(readdirSync(join(out, ".parley")), [], "no temp file is left");
});

test("a lock whose process is gone (or predates the last boot) is taken over with a note", () => {
  const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
  const out = outDir();
  plant(out, {pid: dead, host: hostname(), started: "2025-01-01T00:00:00.000Z", command: "run"});
  const lock = lockOutput(out, "run");
  assert.equal(lock.note, `took over the lock of parley run (pid ${dead} on ${hostname()}, started 2025-01-01T00:00:00.000Z), which is no longer running`);
  assert.equal(JSON.parse(readFileSync(lock.path, "utf8")).pid, process.pid);
  lock.release();

  // A live pid, but the lock was written before this machine booted: the pid was reused.
  const beforeBoot = new Date(Date.now() - uptime() * 1000 - 60_000).toISOString();
  plant(out, {pid: process.pid, host: hostname(), started: beforeBoot, command: "run"});
  const again = lockOutput(out, "run");
  assert.match(again.note!, /which is no longer running$/);
  again.release();
  assert.deepEqual(readdirSync(join(out, ".parley")), []);
});

test("a lock from another host, or a file that is not a lock, is refused with how to remove it", () => {
  const out = outDir();
  const path = plant(out, {pid: 1, host: "elsewhere.example", started: "2025-01-01T00:00:00.000Z", command: "run"});
  assert.throws(() => lockOutput(out, "run"), {message: `${out} is in use by parley run (pid 1 on elsewhere.example, started 2025-01-01T00:00:00.000Z); if that process is no longer running, delete ${path}`});
  plant(out, "not json");
  assert.throws(() => lockOutput(out, "run"), {message: `${out} is locked by ${path}, which is not a parley lock file; if no parley run or ingest is using ${out}, delete ${path}`});
  assert.equal(readFileSync(path, "utf8"), "not json", "a lock that is not ours is left alone");
});
