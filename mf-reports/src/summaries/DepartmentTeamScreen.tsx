import { Fragment, Suspense, lazy } from 'react';
import { useNavigate } from 'react-router-dom';
import { SUMMARY_LABELS as L, callHistoryHref } from '@tongdai/contracts';
import { AppLink, LoadingState } from '@tongdai/ui';
import { useDepartmentTeamSummary, useSummaryFilters } from './summaries.api';
import { FIGURE_HEADERS, FiguresRow, SummaryPage, figureCells, useSummaryStyles } from './FiguresTable';

// The charts library is loaded with this screen only (its own chunk), never by the other screens.
const SummaryCharts = lazy(() => import('./SummaryCharts'));

/** /history-by-department-team: per department, its teams inside; answered vs missed per team; calls per hour or day. */
export function DepartmentTeamScreen() {
  const s = useSummaryStyles();
  const { filters, setFilter } = useSummaryFilters();
  const query = useDepartmentTeamSummary(filters);
  const navigate = useNavigate();
  const departments = query.data?.data ?? [];
  return (
    <SummaryPage
      title={L.byDepartmentTitle} testId="by-department-team" filters={filters} setFilter={setFilter} query={query}
      headers={[L.department, L.calls, ...FIGURE_HEADERS]} empty={departments.length === 0}
      below={query.data && <Suspense fallback={<LoadingState />}><SummaryCharts data={query.data} /></Suspense>}
    >
      {departments.map((d) => {
        const href = callHistoryHref({ ...filters, department_id: d.department_id });
        return (
          <Fragment key={`d${d.department_id}`}>
            <FiguresRow
              testId="department-row" onOpen={() => d.department_id !== null && navigate(href)}
              cells={[
                d.department_id === null ? L.noDepartment : <AppLink to={href} testId="summary-department">{d.department}</AppLink>,
                <span data-testid="fig-calls">{d.calls}</span>, ...figureCells(d),
              ]}
            />
            {d.teams.map((t) => {
              const teamHref = callHistoryHref({ ...filters, department_id: d.department_id, team_id: t.team_id });
              return (
                <FiguresRow
                  key={`t${d.department_id}-${t.team_id}`} testId="team-row" className={s.sub} onOpen={() => t.team_id !== null && navigate(teamHref)}
                  cells={[
                    t.team_id === null ? <span className={s.muted}>{L.noTeam}</span> : <AppLink to={teamHref} testId="summary-team">{t.team}</AppLink>,
                    <span data-testid="fig-calls">{t.calls}</span>, ...figureCells(t),
                  ]}
                />
              );
            })}
          </Fragment>
        );
      })}
    </SummaryPage>
  );
}
