// The module Claude Code's declarations open (`declare module 'claude-code'`, in its binary), reduced to
// what the plugin's types contract (.claude-plugin/module-types.d.ts) augments, so the compiler reads the contract
// as the host does: the card takes its types from it (card/turns.ts), tests/mod/types-contract.test.ts
// holds the state entry to them.
declare module 'claude-code' {
  // Empty until a plugin's contract names its values (the host's declaration is the same).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface PluginState {}
}
