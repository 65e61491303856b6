// Lets the signed-in layout offer its "open navigation" control and the activities bell inside
// every page header.
import { createContext, type ReactNode } from 'react';

export const PageHeaderLeadContext = createContext<ReactNode>(null);

/** Shown at the right end of every page header (the activities bell). */
export const PageHeaderEndContext = createContext<ReactNode>(null);
