import {chromium} from "playwright-core";
const browser = await chromium.launch({executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"});
const page = await browser.newPage({viewport: {width: 1280, height: 900}});
page.on("console", (m) => console.log("console", m.type(), m.text().slice(0, 300)));
page.on("pageerror", (e) => console.log("pageerror", e.message));
for (const path of process.argv.slice(2)) {
  await page.goto("http://127.0.0.1:3177" + path, {waitUntil: "load"});
  await page.waitForTimeout(60000);
  const text = await page.locator("main").innerText();
  console.log(path, text.slice(0, 6000));
  await page.screenshot({path: `/tmp/na-${path.slice(1)}.png`, fullPage: true});
}
await browser.close();
