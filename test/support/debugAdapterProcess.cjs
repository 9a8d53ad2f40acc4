// Starts `narratoria debug-adapter` from the built bundle: DebugClient spawns `node <one script>`, so this script adds the subcommand.
'use strict';
process.argv.splice(2, 0, 'debug-adapter');
require('../../dist/cli.cjs');
