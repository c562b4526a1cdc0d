/**
 * A fake terminal for the progress renderer: a Writable that says it is a TTY of `columns` columns
 * and keeps what a terminal would show, interpreting the few sequences the renderer writes (cursor
 * up, carriage return, clear to end of line, clear below, colours). A line longer than the width
 * wraps, as on a real terminal. Every write is also kept as it came (`writes`), colour included.
 */
import { Writable } from 'node:stream';

export class VirtualScreen extends Writable {
  readonly isTTY = true;
  readonly writes: string[] = [];
  private rows: string[] = [''];
  /** Rows that continue the row above (a wrapped line). */
  private continued = new Set<number>();
  private row = 0;
  private col = 0;

  constructor(readonly columns = 80) {
    super();
  }

  override _write(chunk: unknown, _enc: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = String(chunk);
    this.writes.push(text);
    this.feed(text);
    done();
  }

  /** Everything written, as one string. */
  raw(): string {
    return this.writes.join('');
  }

  /** The screen's rows, wrapped lines joined back, without trailing empty rows. */
  lines(): string[] {
    const out: string[] = [];
    this.rows.forEach((r, i) => {
      if (this.continued.has(i) && out.length > 0) out[out.length - 1] += r;
      else out.push(r);
    });
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out;
  }

  private feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\u001b' && text[i + 1] === '[') {
        const m = /^\u001b\[([?0-9;]*)([A-Za-z])/.exec(text.slice(i));
        if (!m) throw new Error(`unknown escape at ${JSON.stringify(text.slice(i, i + 8))}`);
        this.control(m[1]!, m[2]!);
        i += m[0].length - 1;
        continue;
      }
      if (ch === '\r') this.col = 0;
      else if (ch === '\n') this.newline(false);
      else this.put(ch);
    }
  }

  private control(params: string, command: string): void {
    const n = params === '' ? 1 : Number(params);
    switch (command) {
      case 'A':
        this.row = Math.max(0, this.row - n);
        break;
      case 'K':
        this.rows[this.row] = this.rows[this.row]!.slice(0, this.col);
        break;
      case 'J':
        this.rows[this.row] = this.rows[this.row]!.slice(0, this.col);
        this.rows.length = this.row + 1;
        for (const r of [...this.continued]) if (r > this.row) this.continued.delete(r);
        break;
      case 'G':
        this.col = n - 1;
        break;
      case 'm': // colour: nothing to show
      case 'h':
      case 'l':
        break;
      default:
        throw new Error(`unexpected control ESC[${params}${command}`);
    }
  }

  private newline(wrapped: boolean): void {
    this.row++;
    this.col = 0;
    if (this.rows.length <= this.row) this.rows.push('');
    if (wrapped) this.continued.add(this.row);
    else this.continued.delete(this.row);
  }

  private put(ch: string): void {
    if (this.col >= this.columns) this.newline(true);
    const line = this.rows[this.row]!.padEnd(this.col);
    this.rows[this.row] = line.slice(0, this.col) + ch + line.slice(this.col + 1);
    this.col++;
  }
}
