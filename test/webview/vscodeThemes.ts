// VS Code theme variables for previewing webviews outside VS Code: Dark Modern, Light Modern and Dark High Contrast (values from the built-in themes).

export type PreviewTheme = 'dark' | 'light' | 'highContrast';

const fonts: Record<string, string> = {
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'editor-font-size': '14px',
  'editor-font-weight': 'normal',
};

const darkModern: Record<string, string> = {
  foreground: '#cccccc',
  descriptionForeground: '#9d9d9d',
  disabledForeground: '#cccccc80',
  errorForeground: '#f85149',
  focusBorder: '#0078d4',
  'icon-foreground': '#cccccc',
  'widget-border': '#313131',
  'widget-shadow': '#0000005c',
  'editor-background': '#1f1f1f',
  'editor-foreground': '#cccccc',
  'editorWidget-background': '#202020',
  'editorWidget-foreground': '#cccccc',
  'editorWidget-border': '#454545',
  'editorWarning-foreground': '#cca700',
  'editorError-foreground': '#f14c4c',
  'editorInfo-foreground': '#3794ff',
  'editor-findMatchHighlightBackground': '#ea5c0055',
  'sideBar-background': '#181818',
  'sideBar-border': '#2b2b2b',
  'sideBarTitle-foreground': '#cccccc',
  'sideBarSectionHeader-background': '#181818',
  'sideBarSectionHeader-foreground': '#cccccc',
  'sideBarSectionHeader-border': '#2b2b2b',
  'panel-background': '#181818',
  'panel-border': '#2b2b2b',
  'button-background': '#0078d4',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#026ec1',
  'button-border': '#ffffff12',
  'button-secondaryBackground': '#313131',
  'button-secondaryForeground': '#cccccc',
  'button-secondaryHoverBackground': '#3c3c3c',
  'input-background': '#313131',
  'input-foreground': '#cccccc',
  'input-border': '#3c3c3c',
  'input-placeholderForeground': '#989898',
  'inputOption-activeBackground': '#2489db82',
  'inputOption-activeBorder': '#2488db',
  'inputOption-activeForeground': '#ffffff',
  'inputValidation-infoBackground': '#063b49',
  'inputValidation-infoBorder': '#007acc',
  'inputValidation-warningBackground': '#352a05',
  'inputValidation-warningBorder': '#b89500',
  'inputValidation-errorBackground': '#5a1d1d',
  'inputValidation-errorBorder': '#be1100',
  'badge-background': '#616161',
  'badge-foreground': '#f8f8f8',
  'progressBar-background': '#0078d4',
  'textLink-foreground': '#4daafc',
  'textBlockQuote-background': '#2b2b2b',
  'textBlockQuote-border': '#616161',
  'textCodeBlock-background': '#2b2b2b',
  'textPreformat-foreground': '#d0d0d0',
  'toolbar-hoverBackground': '#5a5d5e50',
  'list-hoverBackground': '#2a2d2e',
  'list-focusOutline': '#0078d4',
  'list-activeSelectionBackground': '#04395e',
  'tree-indentGuidesStroke': '#585858',
  'tree-inactiveIndentGuidesStroke': '#58585866',
  'testing-iconPassed': '#73c991',
  'testing-iconFailed': '#f14c4c',
  'testing-iconSkipped': '#848484',
  'testing-iconQueued': '#cca700',
  'debugTokenExpression-name': '#c586c0',
  'debugTokenExpression-value': '#cccccc99',
  'debugTokenExpression-string': '#ce9178',
  'debugTokenExpression-boolean': '#4e94ce',
  'debugTokenExpression-number': '#b5cea8',
  'debugTokenExpression-error': '#f48771',
  'charts-purple': '#b180d7',
  'scrollbarSlider-background': '#79797966',
  'scrollbarSlider-hoverBackground': '#646464b3',
  'scrollbarSlider-activeBackground': '#bfbfbf66',
};

const lightModern: Record<string, string> = {
  foreground: '#3b3b3b',
  descriptionForeground: '#3b3b3b',
  disabledForeground: '#61616180',
  errorForeground: '#f85149',
  focusBorder: '#005fb8',
  'icon-foreground': '#3b3b3b',
  'widget-border': '#e5e5e5',
  'widget-shadow': '#00000029',
  'editor-background': '#ffffff',
  'editor-foreground': '#3b3b3b',
  'editorWidget-background': '#f8f8f8',
  'editorWidget-foreground': '#3b3b3b',
  'editorWidget-border': '#c8c8c8',
  'editorWarning-foreground': '#bf8803',
  'editorError-foreground': '#e51400',
  'editorInfo-foreground': '#1a85ff',
  'editor-findMatchHighlightBackground': '#ea5c0055',
  'sideBar-background': '#f8f8f8',
  'sideBar-border': '#e5e5e5',
  'sideBarTitle-foreground': '#3b3b3b',
  'sideBarSectionHeader-background': '#f8f8f8',
  'sideBarSectionHeader-foreground': '#3b3b3b',
  'sideBarSectionHeader-border': '#e5e5e5',
  'panel-background': '#f8f8f8',
  'panel-border': '#e5e5e5',
  'button-background': '#005fb8',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#0258a8',
  'button-border': '#0000001a',
  'button-secondaryBackground': '#e5e5e5',
  'button-secondaryForeground': '#3b3b3b',
  'button-secondaryHoverBackground': '#cccccc',
  'input-background': '#ffffff',
  'input-foreground': '#3b3b3b',
  'input-border': '#cecece',
  'input-placeholderForeground': '#767676',
  'inputOption-activeBackground': '#bed6ed',
  'inputOption-activeBorder': '#005fb8',
  'inputOption-activeForeground': '#000000',
  'inputValidation-infoBackground': '#d6ecf2',
  'inputValidation-infoBorder': '#007acc',
  'inputValidation-warningBackground': '#f6f5d2',
  'inputValidation-warningBorder': '#b89500',
  'inputValidation-errorBackground': '#f2dede',
  'inputValidation-errorBorder': '#be1100',
  'badge-background': '#cccccc',
  'badge-foreground': '#3b3b3b',
  'progressBar-background': '#005fb8',
  'textLink-foreground': '#005fb8',
  'textBlockQuote-background': '#f8f8f8',
  'textBlockQuote-border': '#e5e5e5',
  'textCodeBlock-background': '#f8f8f8',
  'textPreformat-foreground': '#3b3b3b',
  'toolbar-hoverBackground': '#b8b8b850',
  'list-hoverBackground': '#f2f2f2',
  'list-focusOutline': '#005fb8',
  'list-activeSelectionBackground': '#e8e8e8',
  'tree-indentGuidesStroke': '#a9a9a9',
  'tree-inactiveIndentGuidesStroke': '#a9a9a966',
  'testing-iconPassed': '#388a34',
  'testing-iconFailed': '#e51400',
  'testing-iconSkipped': '#848484',
  'testing-iconQueued': '#cca700',
  'debugTokenExpression-name': '#9b46b0',
  'debugTokenExpression-value': '#6c6c6ccc',
  'debugTokenExpression-string': '#a31515',
  'debugTokenExpression-boolean': '#0000ff',
  'debugTokenExpression-number': '#098658',
  'debugTokenExpression-error': '#e51400',
  'charts-purple': '#652d90',
  'scrollbarSlider-background': '#64646466',
  'scrollbarSlider-hoverBackground': '#646464b3',
  'scrollbarSlider-activeBackground': '#00000099',
};

const highContrast: Record<string, string> = {
  foreground: '#ffffff',
  descriptionForeground: '#ffffffb3',
  disabledForeground: '#a5a5a5',
  errorForeground: '#f48771',
  focusBorder: '#f38518',
  contrastBorder: '#6fc3df',
  contrastActiveBorder: '#f38518',
  'icon-foreground': '#ffffff',
  'widget-border': '#6fc3df',
  'widget-shadow': '#00000000',
  'editor-background': '#000000',
  'editor-foreground': '#ffffff',
  'editorWidget-background': '#0c141f',
  'editorWidget-foreground': '#ffffff',
  'editorWidget-border': '#6fc3df',
  'editorWarning-foreground': '#ffd370',
  'editorError-foreground': '#f48771',
  'editorInfo-foreground': '#3794ff',
  'editor-findMatchHighlightBackground': '#00000000',
  'editor-findMatchHighlightBorder': '#f38518',
  'sideBar-background': '#000000',
  'sideBar-border': '#6fc3df',
  'sideBarTitle-foreground': '#ffffff',
  'sideBarSectionHeader-background': '#000000',
  'sideBarSectionHeader-foreground': '#ffffff',
  'sideBarSectionHeader-border': '#6fc3df',
  'panel-background': '#000000',
  'panel-border': '#6fc3df',
  'button-background': '#000000',
  'button-foreground': '#ffffff',
  'button-border': '#6fc3df',
  'button-secondaryBackground': '#000000',
  'button-secondaryForeground': '#ffffff',
  'input-background': '#000000',
  'input-foreground': '#ffffff',
  'input-border': '#6fc3df',
  'input-placeholderForeground': '#ffffffb3',
  'inputValidation-infoBackground': '#000000',
  'inputValidation-infoBorder': '#6fc3df',
  'inputValidation-warningBackground': '#000000',
  'inputValidation-warningBorder': '#6fc3df',
  'inputValidation-errorBackground': '#000000',
  'inputValidation-errorBorder': '#6fc3df',
  'badge-background': '#000000',
  'badge-foreground': '#ffffff',
  'progressBar-background': '#6fc3df',
  'textLink-foreground': '#21a6ff',
  'textBlockQuote-background': '#000000',
  'textBlockQuote-border': '#ffffff',
  'textCodeBlock-background': '#000000',
  'textPreformat-foreground': '#ffd700',
  'toolbar-hoverBackground': '#00000000',
  'list-hoverBackground': '#00000000',
  'list-focusOutline': '#f38518',
  'tree-indentGuidesStroke': '#a9a9a9',
  'tree-inactiveIndentGuidesStroke': '#a9a9a966',
  'testing-iconPassed': '#73c991',
  'testing-iconFailed': '#f48771',
  'testing-iconSkipped': '#848484',
  'debugTokenExpression-name': '#ffffff',
  'debugTokenExpression-value': '#ffffff',
  'debugTokenExpression-string': '#f48771',
  'debugTokenExpression-boolean': '#75bdfe',
  'debugTokenExpression-number': '#89d185',
  'debugTokenExpression-error': '#f48771',
  'charts-purple': '#b180d7',
  'scrollbarSlider-background': '#6fc3df99',
  'scrollbarSlider-hoverBackground': '#6fc3dfcc',
  'scrollbarSlider-activeBackground': '#6fc3df',
};

const themes: Record<PreviewTheme, { readonly kind: string; readonly colors: Record<string, string> }> = {
  dark: { kind: 'vscode-dark', colors: darkModern },
  light: { kind: 'vscode-light', colors: lightModern },
  highContrast: { kind: 'vscode-high-contrast', colors: highContrast },
};

/** The body class VS Code sets for the theme kind. */
export function themeKind(theme: PreviewTheme): string {
  return themes[theme].kind;
}

/** `--vscode-*` declarations for `:root`, as VS Code sets them on a webview's <html>. */
export function themeCss(theme: PreviewTheme): string {
  const declarations = Object.entries({ ...fonts, ...themes[theme].colors }).map(([name, value]) => `  --vscode-${name}: ${value};`);
  return `:root {\n${declarations.join('\n')}\n}`;
}

/** VS Code's default webview styles (a subset of what the workbench injects before the panel's own CSS). */
export const defaultWebviewCss = `
html { scrollbar-color: var(--vscode-scrollbarSlider-background) var(--vscode-editor-background); }
body {
  background-color: transparent;
  color: var(--vscode-editor-foreground);
  font-family: var(--vscode-font-family);
  font-weight: var(--vscode-font-weight);
  font-size: var(--vscode-font-size);
  margin: 0;
  padding: 0 20px;
}
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
a:focus, input:focus, select:focus, textarea:focus { outline: 1px solid -webkit-focus-ring-color; outline-offset: -1px; }
code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground); }
`;

/** The chart and terminal colours the graph uses (VS Code's built-in defaults), as declarations for `:root`. */
export function chartColours(theme: PreviewTheme): string {
  const colours: Record<PreviewTheme, Record<string, string>> = {
    dark: { 'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-yellow': '#cca700', 'charts-orange': '#d18616', 'charts-red': '#f14c4c', 'terminal-ansiMagenta': '#bc3fbc', 'terminal-ansiCyan': '#11a8cd' },
    light: { 'charts-blue': '#1a85ff', 'charts-green': '#388a34', 'charts-yellow': '#bf8803', 'charts-orange': '#d18616', 'charts-red': '#e51400', 'terminal-ansiMagenta': '#bc05bc', 'terminal-ansiCyan': '#0598bc' },
    highContrast: { 'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-yellow': '#ffd370', 'charts-orange': '#ab5a00', 'charts-red': '#f48771', 'terminal-ansiMagenta': '#d670d6', 'terminal-ansiCyan': '#29b8db' },
  };
  return Object.entries(colours[theme])
    .map(([name, value]) => `  --vscode-${name}: ${value};`)
    .join('\n');
}
