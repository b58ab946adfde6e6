import type { MouseEvent, ReactNode } from 'react';
import { Button, type ButtonProps } from '@fluentui/react-components';
import { useHref, useNavigate } from 'react-router-dom';

/**
 * A router link drawn as a Fluent button: one <a>, one Tab stop. A <button> inside a <Link> is
 * two Tab stops and invalid HTML (axe nested-interactive). A plain click navigates in the app;
 * ctrl/cmd/middle click keeps the browser's own behaviour (new tab). data-* attributes pass through
 * (JSX accepts them on any component).
 */
export interface LinkButtonProps extends Pick<ButtonProps, 'appearance' | 'size' | 'icon' | 'title'> {
  to: string;
  children?: ReactNode;
  'aria-label'?: string;
}

export function LinkButton({ to, ...rest }: LinkButtonProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  const go = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <Button {...rest} as="a" href={href} onClick={go} />;
}
