// Configure Skill form webview entry (browser only): placeholder until the form lands.
export {};
