/**
 * A compact set of the game ids a run has written, for RunTables' check that
 * no game id occurs twice. A Set of a million id strings held some 250 MiB of
 * V8 heap (the ids of `parley run` at 18 games per pair of the full GLEE
 * grid); this keeps a 64-bit hash per id in an open-addressing table of
 * 8-byte slots, 2 to 4 slots per id (it doubles when half full): 16 MiB for
 * a million games. Memory still grows with the games, but by 16 to 32 bytes
 * per game rather than some 250.
 *
 * A hash seen before means the id is a duplicate or, with a chance of about
 * n² / 2⁶⁵ for n ids (3·10⁻⁸ for a million), another id with the same hash:
 * `add` returns false (`has` true) and the caller decides exactly: RunTables
 * compares the ids in the written games files, Checkpoints (run/checkpoint.ts)
 * looks for the checkpoint file.
 */
export class IdHashes {
  /** Slot i is words 2i (high half) and 2i + 1 (low half); 0, 0 is empty. */
  private words = new Uint32Array(2 * 1024);
  size = 0;

  /** `hash`: replaceable so that a test can make ids collide. */
  constructor(private readonly hash: (id: string) => [number, number] = hash64) {}

  /** Records `id`; false when an id with the same 64-bit hash was recorded before. */
  add(id: string): boolean {
    const [hi, lo] = this.hash(id);
    if ((this.size + 1) * 2 > this.words.length / 2) this.grow();
    if (!place(this.words, hi, lo)) return false;
    this.size++;
    return true;
  }

  /** True when an id with the same 64-bit hash as `id` was recorded (`id` itself or, rarely, another). */
  has(id: string): boolean {
    const [hi, lo] = this.hash(id);
    const mask = this.words.length / 2 - 1;
    for (let slot = lo & mask; ; slot = (slot + 1) & mask) {
      const h = this.words[2 * slot];
      const l = this.words[2 * slot + 1];
      if (h === hi && l === lo) return true;
      if (h === 0 && l === 0) return false;
    }
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.words.byteLength;
  }

  private grow(): void {
    const old = this.words;
    this.words = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) place(this.words, old[i], old[i + 1]);
  }
}

/** Puts the hash in its slot (linear probing); false when it is there already. */
function place(words: Uint32Array, hi: number, lo: number): boolean {
  const mask = words.length / 2 - 1;
  for (let slot = lo & mask; ; slot = (slot + 1) & mask) {
    const h = words[2 * slot];
    const l = words[2 * slot + 1];
    if (h === 0 && l === 0) {
      words[2 * slot] = hi;
      words[2 * slot + 1] = lo;
      return true;
    }
    if (h === hi && l === lo) return false;
  }
}

/** Two independent 32-bit hashes of the string's UTF-16 code units (FNV-1a and a murmur-style mix); never 0, 0. */
export function hash64(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = fmix(a) >>> 0;
  b = fmix(b) >>> 0;
  return a === 0 && b === 0 ? [0, 1] : [a, b];
}

/** MurmurHash3's finalizer: every input bit affects every output bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
