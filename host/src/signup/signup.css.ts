/** Additions to the login stylesheet (loginCss): a wider card with two columns. */
export const signupCss = `
.td-login__card.td-signup { width: min(640px, calc(100vw - 32px)); margin: 24px 0; }
.td-signup__grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); column-gap: 16px; }
.td-field__hint { color: #616161; font-size: 12px; }
html.dark .td-field__hint { color: #adadad; }
`;
