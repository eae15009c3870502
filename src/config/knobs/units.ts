/**
 * The unit the time knobs are written in, so a default or a bound reads as
 * `15 * SECOND` in every part of the table alike.
 *
 * @module
 */
export const SECOND = 1000;
