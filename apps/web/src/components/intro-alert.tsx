import type { ReactNode } from 'react';
import { Alert } from 'antd';

/** A page's introduction: an info box with a title and a short list of points. */
export function IntroAlert(props: { title: ReactNode; items: ReactNode[] }) {
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      message={props.title}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {props.items.map((item, index) => (
            <li key={index}>{item}</li>
          ))}
        </ul>
      }
    />
  );
}
