/**
 * The platform's rxjs, by deep path (issue 38, ADR 0002): `rxjs` is a shared package (the host provides it
 * for remotes that take it, mf-softphone), and a shared package is loaded whole and never tree-shaken — 17 KB
 * gzip at /login for four classes and one operator. Imported by these paths, webpack does not match them as the
 * shared `rxjs`: the platform bundles what it uses (~4 KB). Nothing crosses by identity: remotes subscribe to the
 * platform's observables and pipe none of them with another copy's operators.
 */
export { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
export { ReplaySubject } from 'rxjs/internal/ReplaySubject';
export { Subject } from 'rxjs/internal/Subject';
export { filter } from 'rxjs/internal/operators/filter';
