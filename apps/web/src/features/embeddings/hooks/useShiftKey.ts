// Whether Shift is held (the map draws a lasso while it is); released on blur too.
import { useEffect, useState } from 'react';

export function useShiftKey(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const down = (event: KeyboardEvent) => event.key === 'Shift' && setHeld(true);
    const up = (event: KeyboardEvent) => event.key === 'Shift' && setHeld(false);
    const blur = () => setHeld(false);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, []);
  return held;
}
