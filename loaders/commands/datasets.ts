/** `parley datasets`: the catalog and whether each dataset is where the configuration says. */
import {catalog, locateDataset} from "../catalog.js";
import {datasetsConfig} from "../config.js";
import {printJson} from "./args.js";
import {commands} from "./index.js";

export const usage = commands.datasets.usage;

export async function run(): Promise<number> {
  const config = datasetsConfig();
  printJson({
    datasets_dir: config.dir,
    configured_by: config.from,
    datasets: catalog.map((d) => {
      const at = locateDataset(d.id);
      return {id: d.id, title: d.title, path: at.path, available: at.available, ...(at.available ? {} : {hint: at.hint})};
    }),
  });
  return 0;
}
