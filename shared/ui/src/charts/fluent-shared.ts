import { createContext } from 'react';

/**
 * What @fluentui/react-charts imports from Fluent's inner packages (react-shared-contexts,
 * react-utilities, react-theme, react-tabster, react-button, react-popover, react-tooltip,
 * react-overflow, react-menu, tokens, @griffel/react), answered by the ONE @fluentui/react-components
 * the host shares (module federation): no second copy of Fluent's contexts, styles renderer, portals
 * or theme in this remote (webpack.config.js aliases those packages here; ADR 0024).
 */
export * from '@fluentui/react-components';
export { useFluent as useFluent_unstable } from '@fluentui/react-components';

/** react-utilities' check, not re-exported by react-components. */
export const canUseDOM = (): boolean => typeof window !== 'undefined' && !!window.document?.createElement;

/** Only the charts' DeclarativeChart (not used here) reads it; react-components does not re-export the real one. */
export const ThemeContext_unstable = createContext<unknown>(undefined);
