/**
 * `npm run bench`: runs every bench/*.bench.ts (or those whose names contain
 * the arguments) one after another and prints their figures. A bench module
 * exports `default async function (): Promise<void>` that prints its own lines.
 */
import {readdirSync} from "node:fs";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !filters.length || filters.some((x) => f.includes(x)))
  .sort();
for (const file of files) {
  console.log(`\n## ${file.replace(".bench.ts", "")}`);
  const mod = await import(join(dir, file));
  await mod.default();
}
