// Lets the signed-in layout offer its "open navigation" control inside every page header.
import { createContext, type ReactNode } from 'react';

export const PageHeaderLeadContext = createContext<ReactNode>(null);
