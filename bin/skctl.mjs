#!/usr/bin/env node
// skctl entry point: runs the TypeScript CLI through tsx, so a checkout needs no build step.
import { register } from 'tsx/esm/api';

// The AWS SDK warns that its 2027 releases will need Node 22; this CLI pins a release that runs here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { main } = await import('../lib/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
