/**
 * What the app tells observers (the request log, verbose console output) about each answered request;
 * the shapes are plain data in domain/observed.ts, so the request log service reads them too.
 */
export type { LoggedRequest, LoggedRequestAnswer, ObservedFault, ObservedRequest, RequestKind, RequestObserver, RouteKind } from '../domain/observed.js';
