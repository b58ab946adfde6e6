import type { ComponentType } from 'react';
import { ReportLagNotice } from '@tongdai/ui';

/** A screen with the reports' lag warning over it (issue 42: shown while a replica trails by more than 5 s). */
export function withLagNotice(Screen: ComponentType): ComponentType {
  return function ReportScreen() {
    return (
      <>
        <ReportLagNotice />
        <Screen />
      </>
    );
  };
}
