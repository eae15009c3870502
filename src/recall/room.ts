/**
 * The room left in a block being built line by line: estimated tokens (the
 * configured budgets, tokens.ts) and, where the host caps what one hook
 * answer may carry, UTF-16 code units (protocol/hostTools.ts
 * `hookContextCap`, DESIGN D28). A line costs its estimate plus one token
 * and its length plus one unit (the newline that joins it). Without a cap
 * the unit side never binds, so a block is byte for byte what the token
 * budget alone gives.
 *
 * @module
 */
import { estimateTokens } from './tokens.js';

export class Room {
  private usedTokens = 0;
  private usedUnits = 0;

  constructor(
    readonly tokens: number,
    readonly units: number = Infinity,
  ) {}

  /** Whether `line` (and `reserve`, a line that must still fit after it) fits. */
  fits(line: string, reserve?: string): boolean {
    const tokens =
      this.usedTokens + estimateTokens(line) + 1 + (reserve === undefined ? 0 : estimateTokens(reserve) + 1);
    const units = this.usedUnits + line.length + 1 + (reserve === undefined ? 0 : reserve.length + 1);
    return tokens <= this.tokens && units <= this.units;
  }

  /** Whether `tokens` more tokens and `units` more code units fit. */
  hasRoomFor(tokens: number, units: number): boolean {
    return this.usedTokens + tokens <= this.tokens && this.usedUnits + units <= this.units;
  }

  /** Counts `line` as used (whether or not it fit). */
  take(line: string): void {
    this.usedTokens += estimateTokens(line) + 1;
    this.usedUnits += line.length + 1;
  }

  /** Takes `line` when it fits; true when it did. */
  tryTake(line: string, reserve?: string): boolean {
    if (!this.fits(line, reserve)) return false;
    this.take(line);
    return true;
  }

  get tokensUsed(): number {
    return this.usedTokens;
  }

  get tokensLeft(): number {
    return Math.max(0, this.tokens - this.usedTokens);
  }

  get unitsLeft(): number {
    return Math.max(0, this.units - this.usedUnits);
  }
}
