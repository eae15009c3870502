// The types contract of the hooks module (named by "types" in .claude-plugin/plugin.json):
// the values it keeps in $.state, the memory card's (src/mod/card/persist.ts). Claude Code
// refuses a module whose $.state keys are not declared here, and `claude plugin validate`
// checks this file: types only, no import, nothing that runs. The card takes its types from
// here (src/mod/card/turns.ts); tests/mod/types-contract.test.ts holds the state entry to
// what the card keeps and the keys to those the built module uses.

/** One recalled memory as the card lists it. */
export interface CardMemory {
  uri: string;
  score?: number;
}

/** One call of the plugin's MCP tools the agent made. */
export interface CardLookup {
  tool: string;
  query: string;
  hits: number;
  isError: boolean;
}

/** A turn of the session: what was recalled for its prompt and looked up during it. */
export interface CardTurn {
  n: number;
  recalled: CardMemory[];
  lookups: CardLookup[];
}

/** An answer row (its uuid) and the turn it answers. */
export interface CardReply {
  id: string;
  n: number;
}

declare module 'claude-code' {
  interface PluginState {
    openviking: {
      /** The session's turns, newest last. */
      cardTurns: CardTurn[];
      /** Which answer row answers which turn. */
      cardReplies: CardReply[];
      /** The turns whose card is open. */
      cardExpanded: number[];
    };
  }
}
