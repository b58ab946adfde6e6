import type { ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Link } from 'react-router-dom';

const useStyles = makeStyles({
  link: {
    color: tokens.colorBrandForegroundLink,
    textDecoration: 'none',
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { color: tokens.colorBrandForegroundLinkHover, textDecoration: 'underline' },
  },
});

/** A router link in Fluent's link colours (readable in both themes). */
export function AppLink({ to, children, className, testId }: { to: string; children: ReactNode; className?: string; testId?: string }) {
  const s = useStyles();
  return <Link to={to} className={mergeClasses(s.link, className)} data-testid={testId}>{children}</Link>;
}
