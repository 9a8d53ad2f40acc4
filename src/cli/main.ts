// Entry point of the `narratoria` command (placeholder until the CLI lands).
console.log('narratoria');
