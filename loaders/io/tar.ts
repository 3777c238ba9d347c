/**
 * A minimal ustar writer. Framework data loaders may emit a .tar archive whose
 * members pages open as `FileAttachment("data/<archive>/<member>")`, which
 * lets one loader run produce several tables at once.
 */

function header(name: string, size: number): Uint8Array {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: member name too long: ${name}`);
  const h = Buffer.alloc(512);
  const put = (value: string, offset: number, length: number) => h.write(value, offset, length, "ascii");
  h.write(name, 0, 100, "utf8");
  put("0000644\0", 100, 8);
  put("0000000\0", 108, 8);
  put("0000000\0", 116, 8);
  put(size.toString(8).padStart(11, "0") + "\0", 124, 12);
  put(Math.floor(Date.now() / 1000).toString(8).padStart(11, "0") + "\0", 136, 12);
  put("        ", 148, 8);
  put("0", 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return h;
}

/** Packs `members` (name -> bytes) into a tar archive. */
export function tar(members: Record<string, Uint8Array | string>): Buffer {
  const parts: Uint8Array[] = [];
  for (const [name, content] of Object.entries(members)) {
    const body = typeof content === "string" ? Buffer.from(content) : content;
    parts.push(header(name, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
