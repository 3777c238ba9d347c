/**
 * The command line's TypeScript, compiled once and reused while it is current.
 *
 * Running TypeScript through tsx costs about a second per call (its loader
 * starts a worker and transforms every module), too slow for a command that
 * prints a list. So `compiled` bundles the entry with esbuild (code
 * splitting, one chunk per dynamically imported command; packages stay
 * external) into a cache directory and returns the built entry. The cache
 * records every input file with a hash of the text that was compiled; on
 * each call the inputs are hashed again (a few milliseconds) and any
 * difference, a missing file, another esbuild or a changed build script
 * triggers a rebuild, so stale output never runs.
 *
 * Plain JavaScript on purpose: it runs before anything can compile TypeScript.
 */
import {createHash, randomBytes} from "node:crypto";
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync} from "node:fs";
import {readFile} from "node:fs/promises";
import {dirname, join, relative, resolve} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";

const FORMAT = 3;
const self = fileURLToPath(import.meta.url);
/** Files beside the sources that change what a build means. */
const SETTINGS = ["tsconfig.json", "package.json"];
/** Builds other than the current one are removed once they are this old (a long-running command may still load chunks from one). */
const KEEP_OLD_MS = 60 * 60 * 1000;

const hash = (text) => createHash("sha1").update(text).digest("hex");

/** The default cache of a project: inside its node_modules, so the built chunks resolve the project's packages; one folder per checkout. */
export function defaultCacheDir(root) {
  return join(root, "node_modules/.cache/parley/cli", hash(resolve(root)).slice(0, 12));
}

function esbuildVersion(root) {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules/esbuild/package.json"), "utf8")).version;
  } catch {
    return null;
  }
}

/** A file's stat signature: equal signatures mean unchanged content without reading it. */
function signature(path) {
  const st = statSync(path, {bigint: true});
  return `${st.ino}:${st.size}:${st.mtimeNs}`;
}

/**
 * The manifest when every input is as recorded, else null. An input whose
 * stat signature moved (touched, checked out again) is hashed; the same
 * content still counts as current, and the signatures are refreshed so the
 * next call is quick again.
 */
function current(cacheDir, key) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(cacheDir, "manifest.json"), "utf8"));
  } catch {
    return null;
  }
  if (JSON.stringify(manifest.key) !== JSON.stringify(key)) return null;
  let moved = false;
  for (const [file, recorded] of Object.entries(manifest.inputs)) {
    const path = join(key.root, file);
    try {
      if (signature(path) === recorded.stat) continue;
      if (hash(readFileSync(path)) !== recorded.sha1) return null;
      recorded.stat = signature(path);
      moved = true;
    } catch {
      return null;
    }
  }
  try {
    for (const built of Object.values(manifest.entries)) statSync(join(cacheDir, built));
  } catch {
    return null;
  }
  if (moved) writeManifest(cacheDir, manifest);
  return manifest;
}

function writeManifest(cacheDir, manifest) {
  const tmp = join(cacheDir, `.manifest-${process.pid}-${randomBytes(3).toString("hex")}`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, join(cacheDir, "manifest.json"));
}

/**
 * Gives each project source (TypeScript or JavaScript) its own
 * `import.meta.url`, `.dirname` and `.filename`, so code that finds files
 * relative to itself (loaders/projectConfig.ts's projectRoot) behaves as
 * when run from the source. Hashes the text it compiles, so the manifest
 * describes exactly what was built.
 */
function sourceUrls(root, digests) {
  return {
    name: "parley-source-urls",
    setup(build) {
      build.onLoad({filter: /\.[cm]?[jt]s$/}, async (args) => {
        if (args.path.includes("/node_modules/")) return undefined;
        const stat = signature(args.path);
        const text = await readFile(args.path);
        // Signature taken before reading: a write while we read makes it differ, so the next call rechecks.
        digests.set(relative(root, args.path), {sha1: hash(text), stat});
        return {contents: withOwnMeta(text.toString("utf8"), args.path), loader: /\.[cm]?ts$/.test(args.path) ? "ts" : "js"};
      });
    },
  };
}

/** What `import.meta.url`, `.dirname` and `.filename` become in compiled code (esbuild's `define`): a module's own constants. */
const META = {"import.meta.url": "__parley_meta_url", "import.meta.dirname": "__parley_meta_dirname", "import.meta.filename": "__parley_meta_filename"};

/**
 * The source with its own `import.meta` values declared as the constants of
 * META, in front of its first line (after a `#!` line), so line numbers and
 * source maps stay as they were; esbuild renames them apart per module.
 */
function withOwnMeta(text, path) {
  if (!text.includes("import.meta.")) return text;
  const own = `const ${META["import.meta.url"]} = ${JSON.stringify(pathToFileURL(path).href)}, ${META["import.meta.dirname"]} = ${JSON.stringify(dirname(path))}, ${META["import.meta.filename"]} = ${JSON.stringify(path)};`;
  const at = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
  return text.slice(0, at) + own + text.slice(at);
}

async function build(cacheDir, key) {
  const esbuild = await import("esbuild");
  const dirName = `build-${Date.now().toString(36)}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const outdir = join(cacheDir, dirName);
  const digests = new Map();
  const result = await esbuild.build({
    absWorkingDir: key.root,
    entryPoints: key.entries,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    packages: "external",
    define: META,
    outdir,
    sourcemap: true,
    metafile: true,
    logLevel: "silent",
    plugins: [sourceUrls(key.root, digests)],
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...SETTINGS, relative(key.root, self)]) {
    const rel = relative(key.root, resolve(key.root, file));
    try {
      const path = join(key.root, rel);
      inputs[rel] = digests.get(rel) ?? {stat: signature(path), sha1: hash(readFileSync(path))};
    } catch {
      // A settings file the project does not have.
    }
  }
  // Commands imported dynamically are entry points of their own chunks too; the entries are the ones we asked for.
  const outputs = Object.keys(result.metafile.outputs);
  const builtEntries = Object.fromEntries(
    key.entries.map((entry) => [entry, join(dirName, relative(outdir, resolve(key.root, outputs.find((o) => result.metafile.outputs[o].entryPoint === entry))))]),
  );
  linkPackages(cacheDir, key.root);
  const manifest = {key, entries: builtEntries, inputs};
  writeManifest(cacheDir, manifest);
  removeOldBuilds(cacheDir, dirName);
  return manifest;
}

/**
 * Packages stay external, so the chunks import them by name and Node looks
 * for them in the node_modules folders above the chunk: a cache outside the
 * project's node_modules (PARLEY_CLI_CACHE) gets a link to it.
 */
function linkPackages(cacheDir, root) {
  const packages = join(root, "node_modules");
  if (!relative(packages, cacheDir).startsWith("..") || existsSync(join(cacheDir, "node_modules"))) return;
  try {
    symlinkSync(packages, join(cacheDir, "node_modules"), "dir");
  } catch {
    // Another process linked it meanwhile.
  }
}

function removeOldBuilds(cacheDir, keep) {
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith("build-") || name === keep) continue;
    try {
      if (Date.now() - statSync(join(cacheDir, name)).mtimeMs > KEEP_OLD_MS) rmSync(join(cacheDir, name), {recursive: true, force: true});
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/**
 * The file URL of `entry` (a path relative to `root`) compiled to
 * JavaScript: the cached build when it is current, else a fresh one.
 * Throws esbuild's error (with `errors`) when the source does not compile,
 * and an error with a `code` when the cache cannot be written.
 */
export async function compiled({root, entry, cacheDir = defaultCacheDir(root)}) {
  return (await compiledEntries({root, entries: [entry], cacheDir}))[entry];
}

/**
 * Several entries (paths relative to `root`) compiled in one build, their
 * shared modules in shared chunks: an object from each entry to its file
 * URL, as `compiled` gives for one.
 */
export async function compiledEntries({root, entries, cacheDir = defaultCacheDir(root)}) {
  const key = {format: FORMAT, root: resolve(root), entries, esbuild: esbuildVersion(root), node: process.versions.node.split(".")[0]};
  let manifest = current(cacheDir, key);
  if (!manifest) {
    mkdirSync(cacheDir, {recursive: true});
    manifest = await build(cacheDir, key);
  }
  return Object.fromEntries(Object.entries(manifest.entries).map(([entry, built]) => [entry, pathToFileURL(join(cacheDir, built)).href]));
}

/**
 * What a command runs: `entry` compiled (see `compiled`), else, where the
 * cache cannot be written or `useTsx` says so, the source itself through tsx
 * (correct but slower). A source that does not compile prints esbuild's
 * messages, as tsx would, and exits with code 1.
 */
export async function compiledOrSource({root, entry, cacheDir, useTsx = false}) {
  try {
    if (!useTsx) return await compiled({root, entry, cacheDir});
  } catch (error) {
    if (error.errors) await exitOnCompileError(error);
  }
  const {register} = await import("tsx/esm/api");
  register();
  return pathToFileURL(resolve(root, entry)).href;
}

/** A source that does not compile: prints esbuild's messages, as tsx would, and exits with code 1. */
export async function exitOnCompileError(error) {
  const {formatMessages} = await import("esbuild");
  process.stderr.write((await formatMessages(error.errors, {kind: "error", color: false})).join(""));
  process.exit(1);
}
