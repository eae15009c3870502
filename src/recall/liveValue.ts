/**
 * A prompt that asks for a live measurement gets no recall (DESIGN D43):
 * "how many tenants are on the enterprise plan right now", "what's the p99
 * latency of POST /v1/payments these days", "how big is the release binary
 * right now", "what's the weather in berlin today". Memory holds what was
 * decided and learned, not today's numbers: a memory that happened to hold
 * one would be stale by the time it is asked for, and the search answers
 * such a prompt with whatever memory names the same subject (the payments
 * API, the release), which the turn does not need. The answer lives in a
 * dashboard, a query or a tool call.
 *
 * The rule, on the prompt as typed (no network): it asks for an amount or a
 * measured value (how many / much / big / large / long / fast / slow /
 * often, or what's the latency, p99, size, count, cost, bill, traffic,
 * uptime, error rate, weather…) AND it pins that value to the present
 * (right now, currently, at the moment, these days, today, yesterday, this
 * week, lately, so far). Both, so "how fast is kelp supposed to be" (a
 * target someone decided) and "which dataframe lib do we use these days"
 * (a decision, not an amount) are still recalled for. On the recall
 * benchmark it catches 5 of the 58 prompts no memory answers and none of
 * the 207 answered ones. English only. Pure.
 *
 * @module
 */

/** An amount or a measured value is asked for. */
const ASKS_AMOUNT =
  /\bhow (?:many|much|big|large|long|fast|slow|often)\b|\bwhat(?:'s|’s| is| was| are| were) (?:the |our |its |their )?(?:current |latest |actual )?(?:p\d{2}|latency|throughput|traffic|uptime|error rate|size|count|number of|total|cost|price|bill|spend|usage|load|weather|temperature)\b/;

/** The value is pinned to the present. */
const NOW =
  /\b(?:right now|currently|at the moment|these days|nowadays|today|tonight|yesterday|this (?:morning|afternoon|evening|week|month|quarter|year)|lately|so far)\b/;

/** True when `prompt` asks for a live measurement (see the module comment). */
export function asksLiveValue(prompt: string): boolean {
  const text = prompt.toLowerCase();
  return ASKS_AMOUNT.test(text) && NOW.test(text);
}
