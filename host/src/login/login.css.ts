/** Plain CSS: the login screen loads no Fluent (first-load budget). Colours are Fluent's tokens. */
export const loginCss = `
.td-login { min-height: 100vh; display: grid; place-items: center; background: linear-gradient(135deg, #0f6cbd 0%, #115ea3 45%, #f5f5f5 45%); }
html.dark .td-login { background: linear-gradient(135deg, #0f548c 0%, #0c3b5e 45%, #1f1f1f 45%); }
.td-login__card { width: min(400px, calc(100vw - 32px)); background: #fff; border-radius: 8px; box-shadow: 0 8px 16px rgba(0,0,0,.14), 0 0 2px rgba(0,0,0,.12); padding: 32px; box-sizing: border-box; }
html.dark .td-login__card { background: #292929; color: #fff; }
.td-login__brand { font-size: 28px; font-weight: 700; color: #0f6cbd; margin: 0; }
html.dark .td-login__brand { color: #479ef5; }
.td-login__sub { margin: 4px 0 24px; color: #616161; font-size: 14px; }
html.dark .td-login__sub { color: #adadad; }
.td-login h1 { font-size: 20px; font-weight: 600; margin: 0 0 16px; }
.td-field { display: flex; flex-direction: column; gap: 4px; margin-bottom: 14px; }
.td-field label { font-size: 14px; font-weight: 600; }
.td-field input { font: inherit; font-size: 14px; padding: 7px 10px; border: 1px solid #d1d1d1; border-bottom-color: #616161; border-radius: 4px; background: #fff; color: inherit; }
html.dark .td-field input { background: #1f1f1f; border-color: #666; }
.td-field input:focus { outline: 2px solid #0f6cbd; outline-offset: -1px; }
.td-field__error { color: #c50f1f; font-size: 12px; }
html.dark .td-field__error { color: #f1707b; }
.td-alert { border-radius: 4px; padding: 8px 12px; margin-bottom: 16px; font-size: 14px; background: #fdf3f4; border: 1px solid #eeacb2; color: #751d1f; }
html.dark .td-alert { background: #3f1011; border-color: #b10e1c; color: #f1bbbc; }
.td-button { width: 100%; font: inherit; font-weight: 600; font-size: 14px; padding: 9px; border: 0; border-radius: 4px; background: #0f6cbd; color: #fff; cursor: pointer; }
.td-button:hover { background: #115ea3; }
.td-button:disabled { background: #c7c7c7; cursor: default; }
.td-login__switch { margin: 16px 0 0; text-align: center; font-size: 14px; }
.td-login__switch a { color: #0f6cbd; font-weight: 600; text-decoration: none; }
.td-login__switch a:hover { text-decoration: underline; }
html.dark .td-login__switch a { color: #479ef5; }
`;
