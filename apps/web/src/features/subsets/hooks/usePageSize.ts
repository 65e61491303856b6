// The issues tables' page size, kept in local storage so every visit starts with the last one.
import { useCallback, useState } from 'react';
import { readPageSize, writePageSize } from '../subsetRules';

export function usePageSize(): [number, (size: number) => void] {
  const [pageSize, setPageSize] = useState(readPageSize);
  const change = useCallback((size: number) => {
    setPageSize(size);
    writePageSize(size);
  }, []);
  return [pageSize, change];
}
