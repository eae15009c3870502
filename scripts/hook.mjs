// The hook entry is scripts/hook.cjs (D38): this keeps `node scripts/hook.mjs <command>` working.
import './hook.cjs';
