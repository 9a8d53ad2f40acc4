// Play panel webview entry (browser only): placeholder until the panel lands.
export {};
